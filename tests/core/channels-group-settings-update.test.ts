/**
 * PATCH /streams/{stream_id} with the channel `can_*_group` settings in the `{new, old}` form:
 * who may change them, the reference's errors, the stored values and the stream/update events
 * with their recipients; unchanged and refused values write and announce nothing.
 */
import { doCreateUserGroup, doUpdateRealm, doUpdateStream, systemGroupId, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { publishedOfType } from '../helpers/events.js';
import { type ChannelWorld, channel, channelWorld, ids, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, failure, secondRealm } from './fixtures.js';

const id = systemGroupId;
const json = (value: unknown) => JSON.stringify(value);

const set = (cw: ChannelWorld, user: User, streamId: number, settings: Record<string, unknown>) =>
  doUpdateStream(cw.w.ctx, cw.w.as(user), { stream_id: streamId, ...Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, json(v)])) });

const update = (streamId: number, property: string, value: unknown, name = 'Denmark') => ({ type: 'stream', op: 'update', stream_id: streamId, name, property, value });

describe('PATCH /streams/{stream_id}: group settings', () => {
  it('changes who may post, with the derived stream_post_policy, to everyone who can see the channel', async () => {
    const cw = await channelWorld();
    const { w, admin, moderator, member, other, guest, bot } = cw;
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    cw.drain();
    expect(must(await set(cw, admin, stream.id, { can_send_message_group: { new: id('role:administrators'), old: id('role:everyone') } }))).toEqual({});
    expect((await channel(w, 'Denmark')).groupSettings.can_send_message_group).toBe('role:administrators');
    const published = cw.drain();
    expect(published.map((p) => p.event)).toEqual([
      update(stream.id, 'can_send_message_group', id('role:administrators')),
      update(stream.id, 'stream_post_policy', 2),
      update(stream.id, 'is_announcement_only', true),
    ]);
    expect(recipientsOf(published, 'stream', 'update')).toEqual(Array(3).fill(ids(w.owner, admin, moderator, member, other, bot)));
    // An anonymous group: the event carries its members and subgroups.
    const value = { direct_members: [other.id], direct_subgroups: [id('role:moderators')] };
    must(await set(cw, admin, stream.id, { can_send_message_group: { new: value } }));
    expect(cw.drain().map((p) => p.event)).toEqual([
      update(stream.id, 'can_send_message_group', value),
      update(stream.id, 'stream_post_policy', 1),
      update(stream.id, 'is_announcement_only', false),
    ]);
    // GET /streams and register read the stored value.
    const state = await register(w, member, { fetch_event_types: json(['subscription', 'stream']) });
    expect(state.subscriptions[0]).toMatchObject({ can_send_message_group: value, stream_post_policy: 1 });
    expect(state.streams.find((s: { name: string }) => s.name === 'Denmark')).toMatchObject({ can_send_message_group: value });
  });

  it('changes every setting, with user-defined and anonymous groups, one event each', async () => {
    const cw = await channelWorld();
    const { w, admin, member } = cw;
    const team = (must(await doCreateUserGroup(w.ctx, w.as(w.owner), { name: 'team', description: '', members: [member.id] }))).group_id;
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    const values: Record<string, unknown> = {
      can_add_subscribers_group: team,
      can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [team] },
      can_create_topic_group: id('role:members'),
      can_delete_any_message_group: id('role:moderators'),
      can_delete_own_message_group: id('role:everyone'),
      can_move_messages_out_of_channel_group: id('role:fullmembers'),
      can_move_messages_within_channel_group: team,
      can_remove_subscribers_group: id('role:everyone'),
      can_resolve_topics_group: id('role:members'),
      can_subscribe_group: id('role:moderators'),
    };
    cw.drain();
    must(await set(cw, admin, stream.id, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { new: v }]))));
    expect(cw.drain().map((p) => p.event)).toEqual(Object.entries(values).map(([k, v]) => update(stream.id, k, v)));
    const state = await register(w, admin, { fetch_event_types: json(['stream']) });
    expect(state.streams.find((s: { name: string }) => s.name === 'Denmark')).toMatchObject(values);
  });

  it('writes and announces nothing for an unchanged value, however it is spelled', async () => {
    const cw = await channelWorld();
    await subscribe(cw.w, cw.member, ['Denmark']);
    const stream = await channel(cw.w, 'Denmark');
    cw.drain();
    must(await set(cw, cw.admin, stream.id, { can_send_message_group: { new: { direct_members: [], direct_subgroups: [id('role:everyone')] } } }));
    must(await set(cw, cw.admin, stream.id, { can_administer_channel_group: { new: { direct_members: [cw.member.id], direct_subgroups: [] } } }));
    expect(cw.drain()).toEqual([]);
    expect(await channel(cw.w, 'Denmark')).toEqual(stream);
  });

  it('lets the channel’s administrators and realm administrators; tells other readers they may not; hides private channels', async () => {
    const cw = await channelWorld();
    const { w, admin, member, other, guest, moderator } = cw;
    await subscribe(w, member, ['Denmark'], { principals: [member.id, guest.id] });
    await subscribe(w, member, ['secret'], { invite_only: true });
    const [denmark, secret] = [await channel(w, 'Denmark'), await channel(w, 'secret')];
    const change = { can_send_message_group: { new: id('role:members') } };
    must(await set(cw, member, denmark.id, change));
    expectBadRequest(await set(cw, other, denmark.id, { can_send_message_group: { new: id('role:moderators') } }), 'You do not have permission to administer this channel.');
    expectBadRequest(await set(cw, moderator, denmark.id, { can_send_message_group: { new: id('role:moderators') } }), 'You do not have permission to administer this channel.');
    expectBadRequest(await set(cw, guest, denmark.id, { can_send_message_group: { new: id('role:moderators') } }), 'You do not have permission to administer this channel.');
    expectBadRequest(await set(cw, other, secret.id, change), 'Invalid channel ID');
    // Guests are never channel administrators, whatever the setting names.
    must(await set(cw, admin, denmark.id, { can_administer_channel_group: { new: { direct_members: [guest.id], direct_subgroups: [] } } }));
    expectBadRequest(await set(cw, guest, denmark.id, { can_send_message_group: { new: id('role:moderators') } }), 'You do not have permission to administer this channel.');
    // A realm administrator who is not subscribed to the private channel may change it.
    must(await set(cw, admin, secret.id, change));
    const far = await secondRealm(w.ctx);
    expectBadRequest(await doUpdateStream(w.ctx, { realm: far.realm, user: far.owner }, { stream_id: denmark.id, can_send_message_group: { new: 1 } }), 'Invalid channel ID');
  });

  it('sends a private channel’s changes only to those who can see it, and its visibility changes as create and delete', async () => {
    const cw = await channelWorld();
    const { w, admin, member, other } = cw;
    await subscribe(w, member, ['secret'], { invite_only: true });
    const secret = await channel(w, 'secret');
    cw.drain();
    must(await set(cw, admin, secret.id, { can_send_message_group: { new: id('role:members') } }));
    let published = cw.drain();
    expect(recipientsOf(published, 'stream', 'update')).toEqual([ids(w.owner, admin, member)]);
    must(await set(cw, member, secret.id, { can_administer_channel_group: { new: { direct_members: [member.id, other.id], direct_subgroups: [] } } }));
    published = cw.drain();
    expect(published.map((p) => [p.event.type, p.event.op, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      ['stream', 'update', ids(w.owner, admin, member)],
      ['stream', 'create', [other.id]],
      ['subscription', 'peer_add', [other.id]],
    ]);
    expect(publishedOfType(published, 'stream', 'create')[0]!.streams[0]).toMatchObject({ stream_id: secret.id, subscriber_count: 0, can_administer_channel_group: { direct_members: [member.id, other.id], direct_subgroups: [] } });
    expect(published[2]!.event).toMatchObject({ stream_ids: [secret.id], user_ids: [member.id] });
    must(await set(cw, member, secret.id, { can_administer_channel_group: { new: { direct_members: [member.id], direct_subgroups: [] } } }));
    published = cw.drain();
    expect(published.map((p) => [p.event.type, p.event.op, [...p.userIds].sort((a, b) => a - b)])).toEqual([
      ['stream', 'update', ids(w.owner, admin, member)],
      ['stream', 'delete', [other.id]],
    ]);
  });

  it('needs content access for the settings that grant it', async () => {
    const cw = await channelWorld();
    const { w, admin, member } = cw;
    await subscribe(w, member, ['secret'], { invite_only: true });
    const secret = await channel(w, 'secret');
    cw.drain();
    expectBadRequest(await set(cw, admin, secret.id, { can_subscribe_group: { new: id('role:members') } }), 'Channel content access is required.');
    expectBadRequest(await set(cw, admin, secret.id, { can_add_subscribers_group: { new: id('role:members') } }), 'Channel content access is required.');
    // An unchanged value is not a change, so it needs nothing.
    must(await set(cw, admin, secret.id, { can_subscribe_group: { new: id('role:nobody') } }));
    expect(cw.drain()).toEqual([]);
    must(await set(cw, member, secret.id, { can_subscribe_group: { new: { direct_members: [admin.id], direct_subgroups: [] } } }));
    // Now the administrator has content access through the setting.
    must(await set(cw, admin, secret.id, { can_add_subscribers_group: { new: id('role:moderators') } }));
  });

  it('wants exactly everyone to create topics where history is protected', async () => {
    const cw = await channelWorld();
    const { w, admin, member } = cw;
    await subscribe(w, member, ['protected'], { invite_only: true });
    await subscribe(w, member, ['shared'], { invite_only: true, history_public_to_subscribers: true });
    const [hidden, shared] = [await channel(w, 'protected'), await channel(w, 'shared')];
    const incompatible = (result: Parameters<typeof failure>[0]) =>
      expectError(result, 'BAD_REQUEST', 'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group', 400, {
        parameters: 'history_public_to_subscribers, can_create_topic_group',
      });
    cw.drain();
    incompatible(await set(cw, member, hidden.id, { can_create_topic_group: { new: id('role:moderators') } }));
    incompatible(await set(cw, member, hidden.id, { can_create_topic_group: { new: { direct_members: [admin.id], direct_subgroups: [id('role:everyone')] } } }));
    must(await set(cw, member, shared.id, { can_create_topic_group: { new: id('role:moderators') } }));
    incompatible(await set(cw, member, shared.id, { history_public_to_subscribers: false }));
    incompatible(await doUpdateStream(w.ctx, w.as(member), { stream_id: hidden.id, history_public_to_subscribers: false, can_create_topic_group: { new: id('role:members') } }));
    // Both in one request: sharing the history allows the group.
    must(await doUpdateStream(w.ctx, w.as(member), { stream_id: hidden.id, history_public_to_subscribers: true, can_create_topic_group: { new: id('role:members') } }));
    must(await doUpdateStream(w.ctx, w.as(member), { stream_id: shared.id, history_public_to_subscribers: false, can_create_topic_group: { new: id('role:everyone') } }));
    expect((await channel(w, 'shared')).groupSettings.can_create_topic_group).toBe('role:everyone');
  });

  it('needs can_set_delete_message_policy_group for the delete settings', async () => {
    const cw = await channelWorld();
    const { w, admin, member, moderator } = cw;
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    must(await set(cw, admin, stream.id, { can_administer_channel_group: { new: { direct_members: [member.id, moderator.id], direct_subgroups: [] } } }));
    cw.drain();
    expectBadRequest(await set(cw, member, stream.id, { can_delete_own_message_group: { new: id('role:members') } }), 'Insufficient permission');
    expectBadRequest(await set(cw, member, stream.id, { can_delete_any_message_group: { new: id('role:moderators') } }), 'Insufficient permission');
    must(await set(cw, moderator, stream.id, { can_delete_own_message_group: { new: id('role:members') } }));
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { can_set_delete_message_policy_group: { new: id('role:nobody') } }));
    expectBadRequest(await set(cw, moderator, stream.id, { can_delete_own_message_group: { new: id('role:nobody') } }), 'Insufficient permission');
    must(await set(cw, admin, stream.id, { can_delete_own_message_group: { new: id('role:nobody') } }));
  });

  it('answers the reference’s errors for stale old values, bad groups and bad input, writing nothing', async () => {
    const cw = await channelWorld();
    const { w, admin, member } = cw;
    const far = await secondRealm(w.ctx);
    await subscribe(w, member, ['Denmark']);
    const stream = await channel(w, 'Denmark');
    cw.drain();
    expectError(await set(cw, admin, stream.id, { can_send_message_group: { new: id('role:members'), old: id('role:moderators') } }), 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
    expectBadRequest(await set(cw, admin, stream.id, { can_send_message_group: { new: 9999 } }), 'Invalid user group');
    expectBadRequest(await set(cw, admin, stream.id, { can_send_message_group: { new: { direct_members: [far.owner.id], direct_subgroups: [] } } }), `Invalid user ID: ${far.owner.id}`);
    expectBadRequest(await set(cw, admin, stream.id, { can_subscribe_group: { new: id('role:everyone') } }), "'can_subscribe_group' setting cannot be set to 'role:everyone' group.");
    expectBadRequest(await set(cw, admin, stream.id, { can_create_topic_group: { new: id('role:internet') } }), "'can_create_topic_group' setting cannot be set to 'role:internet' group.");
    const raw = (value: string) => doUpdateStream.fromTransport(w.ctx, w.as(admin), { stream_id: String(stream.id), can_send_message_group: value });
    expectBadRequest(await raw('{nope'), 'can_send_message_group is not valid JSON');
    expectBadRequest(await raw('{"old": 1}'), 'can_send_message_group["new"] field is missing');
    // The plain form is the creation form only, as the reference's GroupSettingChangeRequest.
    expect(failure(await raw(String(id('role:members')))).code).toBe('BAD_REQUEST');
    expect(failure(await raw('{"new": "role:members"}')).code).toBe('BAD_REQUEST');
    // A failing setting anywhere leaves the others unwritten.
    expectBadRequest(await set(cw, admin, stream.id, { description: 'new', can_send_message_group: { new: id('role:members') }, can_subscribe_group: { new: 9999 } }), 'Invalid user group');
    expect(cw.drain()).toEqual([]);
    expect(await channel(w, 'Denmark')).toEqual(stream);
  });
});
