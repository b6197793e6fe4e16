/**
 * realm_bot events: what the bot's managers (its owner and the realm's administrators) learn of
 * a bot beyond its realm_user record. Since FL 474 the bot record holds only what the user
 * record lacks (API.md 9), and update events are sent only for those fields.
 */
import { isAdmin } from '../access/roles.js';
import { botProfile, defaultChannelNames, serviceDicts } from '../bots/profile.js';
import type { Ctx } from '../context.js';
import type { BotProfile, Realm, Tx, User } from '../storage/types.js';
import { publishOnCommit } from './publish.js';
import type { BotRecord, RealmBotEvent } from './union/users.js';

/** The bot record of FL 474 (register's realm_bots, realm_bot add): what is not on the user record. */
export function formatBot(bot: User, profile: BotProfile, channelNames: ReadonlyMap<number, string>): BotRecord {
  const name = (id: number | null) => (id === null ? null : (channelNames.get(id) ?? null));
  return {
    user_id: bot.id,
    default_sending_stream: name(profile.defaultSendingStreamId),
    default_events_register_stream: name(profile.defaultEventsRegisterStreamId),
    default_all_public_streams: profile.defaultAllPublicStreams,
    services: serviceDicts(bot.botType, profile),
  };
}

/** The bot record of `bot` as stored now. */
export async function readBotRecord(tx: Tx, realmId: number, bot: User): Promise<BotRecord> {
  const profile = await botProfile(tx, realmId, bot.id);
  return formatBot(bot, profile, await defaultChannelNames(tx, realmId, [profile]));
}

/**
 * Whether `viewer` manages `bot` (and so has it in realm_bots): the realm's human
 * administrators manage every bot, anyone else the bots they own (bot_owner_user_ids).
 */
export const managesBot = (viewer: User, bot: Pick<User, 'botOwnerId'>) =>
  viewer.isActive && ((isAdmin(viewer) && !viewer.isBot) || bot.botOwnerId === viewer.id);

/** IDs of the active users who manage `bot`: its owner and the realm's human administrators. */
export async function botManagers(tx: Tx, realmId: number, bot: Pick<User, 'botOwnerId'>): Promise<number[]> {
  return (await tx.users.list(realmId)).filter((u) => managesBot(u, bot)).map((u) => u.id);
}

/** `realm_bot` add (creation, reactivation) or delete (deactivation), to the bot's managers. */
export async function announceBot(ctx: Ctx, tx: Tx, realm: Realm, bot: User, op: 'add' | 'delete'): Promise<void> {
  const userIds = await botManagers(tx, realm.id, bot);
  if (userIds.length === 0) return;
  const event: RealmBotEvent = op === 'add' ? { type: 'realm_bot', op, bot: await readBotRecord(tx, realm.id, bot) } : { type: 'realm_bot', op, bot: { user_id: bot.id } };
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event });
}

/** `realm_bot` add or delete of `bot` to the given users only (an owner change's old and new owner). */
export async function announceBotTo(ctx: Ctx, tx: Tx, realm: Realm, bot: User, op: 'add' | 'delete', userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  const event: RealmBotEvent = op === 'add' ? { type: 'realm_bot', op, bot: await readBotRecord(tx, realm.id, bot) } : { type: 'realm_bot', op, bot: { user_id: bot.id } };
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event });
}

/** `realm_bot` update with the changed fields of the bot record, to the bot's managers. */
export async function announceBotUpdate(ctx: Ctx, tx: Tx, realm: Realm, bot: User, fields: Partial<Omit<BotRecord, 'user_id'>>, except: readonly number[] = []): Promise<void> {
  const userIds = (await botManagers(tx, realm.id, bot)).filter((id) => !except.includes(id));
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds, event: { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } } });
}
