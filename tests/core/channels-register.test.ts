/**
 * The channel sections of POST /register (SHAPES.md 2.4, 2.8) and the verify_action check: for
 * every channel change, each viewer's snapshot plus the events their queue received equals a
 * fresh snapshot, for each way of registering (subscribers or not, archived_channels,
 * notification_settings_null).
 */
import { MODERATORS_CREATE_WEB_PUBLIC } from './fixtures.js';
import {
  doAddDefaultStream,
  doArchiveStream,
  doRegister,
  doRemoveDefaultStream,
  doSubscribe,
  doUnsubscribe,
  doUpdateSettings,
  doUpdateStream,
  doUpdateSubscriptionProperties,
  systemGroupId,
  updateRealmAsOperator,
  type User,
} from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must, type World } from '../helpers/core.js';
import { applyChannelEvents, normalizedChannels } from './apply-channel-events.js';
import {
  channel,
  type ChannelWorld,
  channelWorld,
  ids,
  queued,
  register,
  STREAM_KEYS,
  SUBSCRIPTION_KEYS,
  setStream,
  type Snapshot,
  subscribe,
} from './channel-helpers.js';

const SECTIONS = '["subscription", "stream", "default_streams"]';
// biome-ignore lint/suspicious/noExplicitAny: snapshots are JSON checked field by field.
const namesOf = (list: any[]) => list.map((c) => c.name);

describe('register: subscriptions, unsubscribed, never_subscribed, streams, realm_default_streams', () => {
  async function setup() {
    const cw = await channelWorld();
    const { w, admin, member, other, guest } = cw;
    await subscribe(w, member, ['mine', 'left', 'shared'], { principals: [member.id, guest.id] });
    await subscribe(w, other, ['theirs']);
    await subscribe(w, other, ['their secret'], { invite_only: true });
    must(await doUnsubscribe(w.ctx, w.as(member), { subscriptions: ["left"] }));
    must(await doUnsubscribe(w.ctx, w.as(guest), { subscriptions: ["left"] }));
    must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: (await channel(w, 'theirs')).id }));
    return cw;
  }

  it('sorts each list by name and shows each user what they may see', async () => {
    const { w, admin, member, guest } = await setup();
    const snapshot = await register(w, member, { fetch_event_types: SECTIONS });
    expect(namesOf(snapshot.subscriptions)).toEqual(['mine', 'shared']);
    expect(namesOf(snapshot.unsubscribed)).toEqual(['left']);
    expect(namesOf(snapshot.never_subscribed)).toEqual(['theirs']);
    expect(namesOf(snapshot.streams)).toEqual(['left', 'mine', 'shared', 'theirs']);
    expect(snapshot.realm_default_streams).toEqual([(await channel(w, 'theirs')).id]);
    expect(Object.keys(snapshot.subscriptions[0]).sort()).toEqual(SUBSCRIPTION_KEYS);
    expect(Object.keys(snapshot.unsubscribed[0]).sort()).toEqual(SUBSCRIPTION_KEYS);
    expect(Object.keys(snapshot.never_subscribed[0]).sort()).toEqual(STREAM_KEYS);
    expect(Object.keys(snapshot.streams[0]).sort()).toEqual(STREAM_KEYS);

    const adminView = await register(w, admin, { fetch_event_types: SECTIONS });
    expect(namesOf(adminView.never_subscribed)).toEqual(['left', 'mine', 'shared', 'their secret', 'theirs']);
    expect(namesOf(adminView.streams)).toEqual(['left', 'mine', 'shared', 'their secret', 'theirs']);

    const guestView = await register(w, guest, { fetch_event_types: SECTIONS });
    expect(namesOf(guestView.subscriptions)).toEqual(['mine', 'shared']);
    expect(guestView.unsubscribed).toEqual([]);
    expect(guestView.never_subscribed).toEqual([]);
    expect(namesOf(guestView.streams)).toEqual(['mine', 'shared']);
    expect(guestView.realm_default_streams).toEqual([]);
  });

  it('adds subscribers where asked for and where the user may see them', async () => {
    const { w, admin, member, other, guest } = await setup();
    const plain = await register(w, member, { fetch_event_types: SECTIONS });
    expect(plain.subscriptions[0]).not.toHaveProperty('subscribers');
    const full = await register(w, member, { fetch_event_types: SECTIONS, include_subscribers: 'true' });
    expect(full.subscriptions.map((s: Snapshot) => s.subscribers)).toEqual([ids(member, guest), ids(member, guest)]);
    expect(full.unsubscribed.map((s: Snapshot) => s.subscribers)).toEqual([[]]);
    expect(full.never_subscribed.map((s: Snapshot) => s.subscribers)).toEqual([[other.id]]);
    const adminView = await register(w, admin, { fetch_event_types: SECTIONS, include_subscribers: 'partial' });
    expect(adminView.never_subscribed.find((s: Snapshot) => s.name === 'their secret').subscribers).toEqual([other.id]);
  });

  it('sends inherited notification settings as null only to clients that declared notification_settings_null', async () => {
    const { w, member } = await setup();
    must(await doUpdateSettings(w.ctx, w.as(member), { enable_stream_push_notifications: true, wildcard_mentions_notify: false }));
    const modern = await register(w, member, { fetch_event_types: SECTIONS, client_capabilities: '{"notification_settings_null": true}' });
    const legacy = await register(w, member, { fetch_event_types: SECTIONS });
    const settings = (sub: Snapshot) => [sub.desktop_notifications, sub.audible_notifications, sub.push_notifications, sub.email_notifications, sub.wildcard_mentions_notify];
    expect(settings(modern.subscriptions[0])).toEqual([null, null, null, null, null]);
    expect(settings(legacy.subscriptions[0])).toEqual([false, false, true, false, false]);
    expect(settings(legacy.unsubscribed[0])).toEqual([false, false, true, false, false]);
  });

  it('includes archived channels only for clients that declared archived_channels', async () => {
    const { w, member } = await setup();
    await setStream(w, await channel(w, 'mine'), { isArchived: true });
    await setStream(w, await channel(w, 'theirs'), { isArchived: true });
    const legacy = await register(w, member, { fetch_event_types: SECTIONS });
    expect(namesOf(legacy.subscriptions)).toEqual(['shared']);
    expect(namesOf(legacy.never_subscribed)).toEqual([]);
    expect(namesOf(legacy.streams)).toEqual(['left', 'shared']);
    const capable = await register(w, member, { fetch_event_types: SECTIONS, client_capabilities: '{"archived_channels": true}' });
    expect(capable.subscriptions.map((s: Snapshot) => [s.name, s.is_archived])).toEqual([
      ['mine', true],
      ['shared', false],
    ]);
    expect(namesOf(capable.never_subscribed)).toEqual(['theirs']);
    expect(namesOf(capable.streams)).toEqual(['left', 'mine', 'shared', 'theirs']);
  });

  it('gives spectators the web-public channels as if subscribed', async () => {
    const { w, moderator } = await setup();
    must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true, settings: MODERATORS_CREATE_WEB_PUBLIC }));
    await subscribe(w, moderator, ['web'], { is_web_public: true });
    const realm = { ...w.realm, webPublicAccessEnabled: true };
    const snapshot = must(await doRegister.fromTransport(w.ctx, { realm, user: null }, { fetch_event_types: SECTIONS })) as Snapshot;
    expect(snapshot.subscriptions).toEqual([
      expect.objectContaining({ name: 'web', is_web_public: true, color: '#76ce90', is_muted: false, desktop_notifications: true, subscriber_count: 1 }),
    ]);
    expect(snapshot.unsubscribed).toEqual([]);
    expect(snapshot.never_subscribed).toEqual([]);
    expect(namesOf(snapshot.streams)).toEqual(['web']);
    expect(snapshot.realm_default_streams).toEqual([]);
  });
});

/** The ways a client may register, each verified separately. */
const VARIANTS: Record<string, unknown>[] = [
  {},
  { include_subscribers: 'true' },
  { include_subscribers: 'true', client_capabilities: '{"archived_channels": true, "notification_settings_null": true}' },
  { client_capabilities: '{"archived_channels": true}' },
];

/**
 * Registers every viewer in every variant, runs the action, and checks that each snapshot plus
 * its queue's events equals a fresh snapshot.
 */
async function verifyAction(w: World, viewers: readonly User[], action: () => Promise<unknown>, variants = VARIANTS): Promise<void> {
  const registered: { viewer: User; params: Record<string, unknown>; snapshot: Snapshot }[] = [];
  for (const viewer of viewers) {
    for (const variant of variants) {
      const params = { ...variant, fetch_event_types: SECTIONS };
      registered.push({ viewer, params, snapshot: await register(w, viewer, params) });
    }
  }
  await action();
  for (const { viewer, params, snapshot } of registered) {
    const events = await queued(w, viewer, snapshot.queue_id);
    const applied = applyChannelEvents(snapshot, events, {
      userId: viewer.id,
      includeSubscribers: params.include_subscribers === 'true',
    });
    const fresh = await register(w, viewer, params);
    expect(normalizedChannels(applied), `${viewer.deliveryEmail} ${JSON.stringify(params)}`).toEqual(normalizedChannels(fresh));
  }
}

describe('verify_action: snapshot + events = fresh snapshot', () => {
  let cw: ChannelWorld;
  const viewers = () => [cw.w.owner, cw.admin, cw.member, cw.other, cw.guest, cw.bot];
  const step = (action: () => Promise<unknown>) => verifyAction(cw.w, viewers(), action);

  it('for subscribing, creating, joining and leaving channels', async () => {
    cw = await channelWorld();
    const { w, member, other, guest, bot } = cw;
    await step(() => subscribe(w, member, ['public']));
    await step(() => subscribe(w, other, ['public', 'second']));
    await step(() => subscribe(w, member, ['secret'], { invite_only: true }));
    await step(() => subscribe(w, member, ['secret', 'public'], { principals: [other.id, guest.id, bot.id] }));
    await step(() => doUnsubscribe(w.ctx, w.as(other), { subscriptions: ["secret","public"] }));
    await step(() => doUnsubscribe(w.ctx, w.as(guest), { subscriptions: ["public"] }));
    await step(() => doUnsubscribe(w.ctx, w.as(cw.admin), { subscriptions: ["secret"], principals: [guest.id,member.id] }));
    await step(() => subscribe(w, other, ['public', 'second']));
  });

  it('for personal settings and default channels', async () => {
    cw = await channelWorld();
    const { w, member, admin } = cw;
    await subscribe(w, member, ['public', 'other']);
    const stream = await channel(w, 'public');
    const change = (property: string, value: unknown) =>
      doUpdateSubscriptionProperties.fromTransport(w.ctx, w.as(member), { subscription_data: [{ stream_id: stream.id, property, value }] });
    await step(() => change('is_muted', true));
    await step(() => change('in_home_view', true));
    await step(() => change('color', '#abcdef'));
    await step(() => change('pin_to_top', true));
    await step(() => change('desktop_notifications', true));
    await step(() => change('wildcard_mentions_notify', false));
    await step(() => doAddDefaultStream(w.ctx, w.as(admin), { stream_id: stream.id }));
    await step(() => doRemoveDefaultStream(w.ctx, w.as(admin), { stream_id: stream.id }));
  });

  it('for renaming, describing, privacy changes and archiving', async () => {
    cw = await channelWorld();
    const { w, member, admin, guest } = cw;
    await subscribe(w, member, ['public'], { principals: [member.id, guest.id] });
    await subscribe(w, cw.other, ['bystander']);
    const stream = await channel(w, 'public');
    const update = (input: Record<string, unknown>) => doUpdateStream(w.ctx, w.as(admin), { stream_id: stream.id, ...input });
    await step(() => update({ new_name: 'renamed' }));
    await step(() => update({ description: 'About\nthings' }));
    await step(() => update({ is_private: 'true' }));
    await step(() => update({ history_public_to_subscribers: 'true' }));
    must(await doSubscribe(w.ctx, w.as(member), { subscriptions: [{"name":"renamed"}], principals: [admin.id] }));
    await step(() => update({ is_private: 'false' }));
    await step(() => doArchiveStream(w.ctx, w.as(admin), { stream_id: stream.id }));
  });

  it('for unarchiving (clients that declared archived_channels) and web-public channels', async () => {
    cw = await channelWorld();
    const { w, member, admin, moderator } = cw;
    await subscribe(w, member, ['public']);
    const stream = await channel(w, 'public');
    must(await doArchiveStream(w.ctx, w.as(admin), { stream_id: stream.id }));
    // Clients without the capability only hear stream/create: their subscription cannot come back (as in the reference).
    const capable = VARIANTS.filter((v) => String(v.client_capabilities ?? '').includes('archived_channels'));
    await verifyAction(w, viewers(), () => doUpdateStream(w.ctx, w.as(admin), { stream_id: stream.id, is_archived: false }), capable);
    must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true, settings: MODERATORS_CREATE_WEB_PUBLIC }));
    await step(() => subscribe(w, moderator, ['web'], { is_web_public: true }));
    const web = await channel(w, 'web');
    await step(() => doUpdateStream(w.ctx, w.as(admin), { stream_id: web.id, is_web_public: false }));
    await step(() => doUpdateStream(w.ctx, w.as(moderator), { stream_id: web.id, is_web_public: true }));
  });
});

describe('verify_action: channel group settings', () => {
  it('for changing who may post, administer and subscribe, including who may see a private channel', async () => {
    const cw = await channelWorld();
    const { w, member, admin, other } = cw;
    const viewers = [w.owner, admin, member, other, cw.guest, cw.bot];
    await subscribe(w, member, ['public'], { principals: [member.id, cw.guest.id] });
    await subscribe(w, member, ['secret'], { invite_only: true });
    const [open, secret] = [await channel(w, 'public'), await channel(w, 'secret')];
    const set = (stream: { id: number }, name: string, value: unknown) =>
      doUpdateStream(w.ctx, w.as(member), { stream_id: stream.id, [name]: JSON.stringify({ new: value }) });
    await verifyAction(w, viewers, () => set(open, 'can_send_message_group', systemGroupId('role:administrators')));
    await verifyAction(w, viewers, () => set(open, 'can_resolve_topics_group', { direct_members: [other.id], direct_subgroups: [systemGroupId('role:moderators')] }));
    // other gains sight of the private channel, then loses it.
    await verifyAction(w, viewers, () => set(secret, 'can_administer_channel_group', { direct_members: [member.id, other.id], direct_subgroups: [] }));
    await verifyAction(w, viewers, () => set(secret, 'can_subscribe_group', { direct_members: [other.id], direct_subgroups: [] }));
    await verifyAction(w, viewers, () => set(secret, 'can_administer_channel_group', { direct_members: [member.id], direct_subgroups: [] }));
    await verifyAction(w, viewers, () => set(secret, 'can_subscribe_group', systemGroupId('role:nobody')));
  });
});
