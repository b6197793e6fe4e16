/** Shared pieces of the Notification Bot tests: queues, message reads, realm settings written directly. */
import { doRegister, getEvents, getMessages, NOTIFICATION_BOT_EMAIL, type Realm, type SettingValue, type User } from '@teamchat/core/internal';
import { must, type World } from '../helpers/core.js';

export const COMMIT = { isOk: () => true, isErr: () => false, value: undefined } as never;

/** A queue for message events (raw Markdown content, so notices compare as their source). */
export const messageQueue = async (w: World, user: User, types = ['message']) =>
  must(await doRegister(w.ctx, w.as(user), { event_types: types, apply_markdown: false })).queue_id!;

export const drain = async (w: World, user: User, queueId: string) =>
  (must(await getEvents(w.ctx, w.as(user), { queue_id: queueId, dont_block: true })) as { events: Array<Record<string, any>> }).events;

/** The user's messages, newest last, with raw content. */
export const history = async (w: World, user: User) =>
  must(await getMessages(w.ctx, w.as(user), { anchor: 'newest', num_before: 50, num_after: 0, apply_markdown: false })).messages;

/** Writes realm settings straight to storage (PATCH /realm belongs to another area). */
export async function setRealmSettings(w: World, settings: Record<string, SettingValue>): Promise<Realm> {
  await w.ctx.storage.transaction(async (tx) => {
    const realm = await tx.realms.byId(w.realm.id);
    await tx.realms.update(w.realm.id, { settings: { ...realm!.settings, ...settings } });
    return COMMIT;
  });
  return (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
}

/** The realm's Notification Bot as stored, if it exists yet. */
export const storedBot = (w: World) => w.ctx.storage.read((tx) => tx.users.byDeliveryEmail(w.realm.id, NOTIFICATION_BOT_EMAIL));

/** A channel's ID by name. */
export const channelId = async (w: World, name: string) => (await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, name)))!.id;
