/**
 * The channel reads: GET /users/me/subscriptions, GET /streams, GET /streams/{id},
 * GET /streams/{id}/members, GET /get_stream_id, GET /default_streams (SHAPES.md 5.3, 5.4, 6.10).
 * A private channel is invisible to non-subscribers everywhere; administrators see its metadata.
 */
import {
  doAddDefaultStream,
  getDefaultStreams,
  getStream,
  getStreamId,
  getStreamMembers,
  getStreams,
  getSubscriptions,
  updateRealmAsOperator,
} from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, ids, STREAM_KEYS, SUBSCRIPTION_KEYS, setStream, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, MODERATORS_CREATE_WEB_PUBLIC, secondRealm, setUser } from './fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are JSON checked field by field.
const namesOf = (objects: any[]) => objects.map((o) => o.name);

describe('GET /users/me/subscriptions', () => {
  it('lists the active subscriptions by name, as subscription objects, without subscribers by default', async () => {
    const { w, member } = await channelWorld();
    await subscribe(w, member, ['zeta', 'Alpha', 'mid']);
    await subscribe(w, member, ['secret'], { invite_only: true });
    await subscribe(w, w.owner, ['not mine']);
    // biome-ignore lint/suspicious/noExplicitAny: see above.
    const { subscriptions } = must(await getSubscriptions(w.ctx, w.as(member), {})) as { subscriptions: any[] };
    expect(namesOf(subscriptions)).toEqual(['Alpha', 'mid', 'secret', 'zeta']);
    expect(Object.keys(subscriptions[0]).sort()).toEqual(SUBSCRIPTION_KEYS);
    const alpha = await channel(w, 'Alpha');
    expect(subscriptions[0]).toEqual({
      stream_id: alpha.id,
      name: 'Alpha',
      description: '',
      rendered_description: '',
      date_created: alpha.dateCreated,
      creator_id: member.id,
      invite_only: false,
      is_web_public: false,
      is_archived: false,
      history_public_to_subscribers: true,
      message_retention_days: null,
      first_message_id: null,
      folder_id: null,
      topics_policy: 'inherit',
      is_recently_active: true,
      stream_weekly_traffic: null,
      subscriber_count: 1,
      stream_post_policy: 1,
      is_announcement_only: false,
      can_add_subscribers_group: 8,
      can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [] },
      can_create_topic_group: 6,
      can_delete_any_message_group: 8,
      can_delete_own_message_group: 8,
      can_move_messages_out_of_channel_group: 8,
      can_move_messages_within_channel_group: 8,
      can_remove_subscribers_group: 2,
      can_resolve_topics_group: 8,
      can_send_message_group: 6,
      can_subscribe_group: 8,
      default_push_notifications: false,
      color: '#fae589',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  it('adds subscribers with include_subscribers true or "partial", leaving out deactivated users; leaves out archived channels', async () => {
    const { w, member, other, guest } = await channelWorld();
    await subscribe(w, member, ['Denmark', 'old'], { principals: [member.id, other.id, guest.id] });
    await setUser(w.ctx, guest, { isActive: false });
    await setStream(w, await channel(w, 'old'), { isArchived: true });
    for (const include of ['true', 'partial']) {
      const { subscriptions } = must(await getSubscriptions.fromTransport(w.ctx, w.as(member), { include_subscribers: include }));
      expect(subscriptions.map((s) => [s.name, s.subscribers, s.subscriber_count])).toEqual([['Denmark', ids(member, other), 2]]);
    }
    expectBadRequest(await getSubscriptions.fromTransport(w.ctx, w.as(member), { include_subscribers: 'maybe' }), 'include_subscribers is not valid JSON');
    expectBadRequest(await getSubscriptions.fromTransport(w.ctx, w.as(member), { include_subscribers: 1 }), 'Invalid include_subscribers');
  });

  it('sends partial_subscribers for channels of 1000 subscribers or more when asked for "partial"', async () => {
    const { w, member } = await channelWorld();
    await subscribe(w, member, ['crowd', 'small']);
    const crowd = await channel(w, 'crowd');
    await w.ctx.storage.transaction(async (tx) => {
      for (let i = 0; i < 999; i++) {
        const user = await tx.users.insert({
          realmId: w.realm.id, deliveryEmail: `u${i}@example.com`, fullName: `U ${i}`, passwordHash: null, apiKey: `k${String(i).padStart(31, '0')}`,
          role: 400, isActive: true, isBot: false, botType: null, botOwnerId: null, timezone: '', avatarSource: 'G', avatarVersion: 1,
          dateJoined: '2024-01-01T00:00:00.000000+00:00', isImportedStub: false, awaitingFirstLogin: false, canCreateUsers: false,
          canChangeUserEmails: false, emailAddressVisibility: 1,
        });
        await tx.subscriptions.upsert({ ...(await tx.subscriptions.get(w.realm.id, member.id, crowd.id))!, userId: user.id });
      }
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    const partial = must(await getSubscriptions(w.ctx, w.as(member), { include_subscribers: 'partial' })).subscriptions;
    expect(partial.map((s) => [s.name, 'subscribers' in s, (s.partial_subscribers)?.length])).toEqual([
      ['crowd', false, 1000],
      ['small', true, undefined],
    ]);
    const full = must(await getSubscriptions(w.ctx, w.as(member), { include_subscribers: true })).subscriptions;
    expect(full[0]!.subscribers).toHaveLength(1000);
  });
});

describe('GET /streams', () => {
  async function setup() {
    const cw = await channelWorld();
    const { w, member, admin, bot } = cw;
    await subscribe(w, member, ['public one', 'mine']);
    await subscribe(w, member, ['my secret'], { invite_only: true, principals: [member.id, bot.id] });
    await subscribe(w, admin, ['their secret'], { invite_only: true });
    await subscribe(w, w.owner, ['public two']);
    await subscribe(w, w.owner, ['archived']);
    await setStream(w, await channel(w, 'archived'), { isArchived: true });
    return cw;
  }
  const streamNames = async (cw: Awaited<ReturnType<typeof setup>>, user: Parameters<typeof cw.w.as>[0], params: Record<string, unknown> = {}) =>
    namesOf(must(await getStreams(cw.w.ctx, cw.w.as(user), params)).streams);

  it('lists public channels and the requester’s own, by name; private ones of others only with include_all for administrators', async () => {
    const cw = await setup();
    const { w, member, admin, other } = cw;
    expect(await streamNames(cw, member)).toEqual(['mine', 'my secret', 'public one', 'public two']);
    expect(await streamNames(cw, other)).toEqual(['mine', 'public one', 'public two']);
    expect(await streamNames(cw, admin)).toEqual(['mine', 'public one', 'public two', 'their secret']);
    expect(await streamNames(cw, admin, { include_all: 'true' })).toEqual(['mine', 'my secret', 'public one', 'public two', 'their secret']);
    expect(await streamNames(cw, admin, { include_all_active: 'true' })).toEqual(['mine', 'my secret', 'public one', 'public two', 'their secret']);
    expect(await streamNames(cw, other, { include_all: 'true' })).toEqual(['mine', 'public one', 'public two']);
    expect(await streamNames(cw, member, { include_public: 'false' })).toEqual(['mine', 'my secret', 'public one']);
    expect(await streamNames(cw, member, { include_public: 'false', include_subscribed: 'false' })).toEqual([]);
    expect(await streamNames(cw, w.owner, { exclude_archived: 'false', include_public: 'false' })).toEqual(['archived', 'public two']);
    const { streams } = must(await getStreams(w.ctx, w.as(member), {}));
    expect(Object.keys(streams[0]!).sort()).toEqual(STREAM_KEYS);
  });

  it('gives guests only their own channels and, with include_web_public, web-public ones', async () => {
    const cw = await setup();
    const { w, guest, moderator, member } = cw;
    await subscribe(w, member, ['public one'], { principals: [guest.id] });
    must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true, settings: MODERATORS_CREATE_WEB_PUBLIC }));
    await subscribe(w, moderator, ['web'], { is_web_public: true });
    expect(await streamNames(cw, guest)).toEqual(['public one']);
    expect(await streamNames(cw, guest, { include_web_public: 'true' })).toEqual(['public one', 'web']);
    expect(await streamNames(cw, guest, { include_all: 'true' })).toEqual(['public one', 'web']);
    expect(await streamNames(cw, guest, { include_can_access_content: 'true' })).toEqual(['public one', 'web']);
  });

  it('marks default channels with include_default, and lists a bot owner’s channels with include_owner_subscribed', async () => {
    const cw = await setup();
    const { w, admin, bot, member } = cw;
    must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: (await channel(w, 'public two')).id }));
    const { streams } = must(await getStreams(w.ctx, w.as(member), { include_default: true }));
    expect(streams.map((s) => [s.name, s.is_default])).toEqual([
      ['mine', false],
      ['my secret', false],
      ['public one', false],
      ['public two', true],
    ]);
    expect(must(await getStreams(w.ctx, w.as(member), {})).streams[0]).not.toHaveProperty('is_default');
    expect(await streamNames(cw, bot, { include_public: 'false' })).toEqual(['my secret']);
    expect(await streamNames(cw, bot, { include_public: 'false', include_subscribed: 'false', include_owner_subscribed: 'true' })).toEqual([
      'mine',
      'my secret',
      'public one',
    ]);
  });

  it('checks the flags’ types', async () => {
    const { w, member } = await channelWorld();
    expectBadRequest(await getStreams.fromTransport(w.ctx, w.as(member), { include_all: 'yes' }), 'include_all is not valid JSON');
    expectBadRequest(await getStreams.fromTransport(w.ctx, w.as(member), { include_public: 0 }), 'include_public is not a boolean');
    expectError(await getStreams(w.ctx, w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('GET /streams/{stream_id} and /members', () => {
  it('gives one channel the requester may see; private ones to their subscribers and administrators only', async () => {
    const { w, member, other, admin, guest } = await channelWorld();
    await subscribe(w, member, ['Denmark'], { principals: [member.id, other.id] });
    await subscribe(w, member, ['secret'], { invite_only: true });
    const [denmark, secret] = [await channel(w, 'Denmark'), await channel(w, 'secret')];
    const get = (user: typeof member, id: number | string) => getStream.fromTransport(w.ctx, w.as(user), { stream_id: id });
    expect(must(await get(other, denmark.id))).toEqual({ stream: expect.objectContaining({ stream_id: denmark.id, name: 'Denmark', subscriber_count: 2 }) });
    expect(Object.keys(must(await get(other, denmark.id)).stream).sort()).toEqual(STREAM_KEYS);
    expect(must(await get(admin, secret.id)).stream.name).toBe('secret');
    expect(must(await get(member, secret.id)).stream.invite_only).toBe(true);
    expectBadRequest(await get(other, secret.id), 'Invalid channel ID');
    expectBadRequest(await get(guest, denmark.id), 'Invalid channel ID');
    expectBadRequest(await get(other, 9999), 'Invalid channel ID');
    expectBadRequest(await get(other, 'x'), 'stream_id is not an integer');
    await setStream(w, denmark, { isArchived: true });
    expectBadRequest(await get(other, denmark.id), 'Invalid channel ID');
    const foreign = await secondRealm(w.ctx);
    expectBadRequest(await getStream(w.ctx, { realm: foreign.realm, user: foreign.owner }, { stream_id: secret.id }), 'Invalid channel ID');
  });

  it('lists active subscribers to those who may see them', async () => {
    const { w, member, other, admin, guest } = await channelWorld();
    await subscribe(w, member, ['Denmark'], { principals: [other.id, member.id, guest.id] });
    await subscribe(w, member, ['secret'], { invite_only: true });
    const [denmark, secret] = [await channel(w, 'Denmark'), await channel(w, 'secret')];
    const members = (user: typeof member, id: number) => getStreamMembers(w.ctx, w.as(user), { stream_id: id });
    expect(must(await members(w.owner, denmark.id))).toEqual({ subscribers: ids(member, other, guest) });
    expect(must(await members(guest, denmark.id))).toEqual({ subscribers: ids(member, other, guest) });
    await setUser(w.ctx, other, { isActive: false });
    expect(must(await members(admin, denmark.id))).toEqual({ subscribers: ids(member, guest) });
    expect(must(await members(admin, secret.id))).toEqual({ subscribers: [member.id] });
    expectBadRequest(await members(guest, secret.id), 'Invalid channel ID');
    expectBadRequest(await members(guest, 9999), 'Invalid channel ID');
  });
});

describe('GET /get_stream_id', () => {
  it('finds a channel the requester may read by name in any case; everything else is an invalid name', async () => {
    const { w, member, other, admin } = await channelWorld();
    await subscribe(w, member, ['Denmark']);
    await subscribe(w, member, ['secret'], { invite_only: true });
    const id = (user: typeof member, stream: string) => getStreamId(w.ctx, w.as(user), { stream });
    expect(must(await id(other, 'denmark'))).toEqual({ stream_id: (await channel(w, 'Denmark')).id });
    expect(must(await id(member, 'SECRET'))).toEqual({ stream_id: (await channel(w, 'secret')).id });
    expectBadRequest(await id(other, 'secret'), "Invalid channel name 'secret'");
    expectBadRequest(await id(admin, 'secret'), "Invalid channel name 'secret'");
    expectBadRequest(await id(other, 'nope'), "Invalid channel name 'nope'");
    expectError(await getStreamId.fromTransport(w.ctx, w.as(other), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'stream' argument", 400, { var_name: 'stream' });
  });
});

describe('GET /default_streams', () => {
  it('gives the default channel IDs, and none to guests', async () => {
    const { w, admin, member, guest } = await channelWorld();
    await subscribe(w, admin, ['b', 'a']);
    for (const name of ['b', 'a']) must(await doAddDefaultStream(w.ctx, w.as(admin), { stream_id: (await channel(w, name)).id }));
    const expected = [(await channel(w, 'b')).id, (await channel(w, 'a')).id].sort((x, y) => x - y);
    expect(must(await getDefaultStreams(w.ctx, w.as(member), {}))).toEqual({ default_streams: expected });
    expect(must(await getDefaultStreams(w.ctx, w.as(guest), {}))).toEqual({ default_streams: [] });
  });
});
