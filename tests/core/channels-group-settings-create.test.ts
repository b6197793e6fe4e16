/**
 * Channel creation (POST /users/me/subscriptions) with the channel `can_*_group` settings: the
 * reference's defaults, plain group-setting values of every kind, and its errors; a refused
 * request creates and announces nothing.
 */
import { doCreateUserGroup, doSubscribe, doUpdateRealm, systemGroupId, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { publishedOfType } from '../helpers/events.js';
import { type ChannelWorld, channel, channelWorld, names, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, failure, secondRealm } from './fixtures.js';

const id = systemGroupId;
const json = (value: unknown) => JSON.stringify(value);

async function userGroup(cw: ChannelWorld, name: string, members: User[]): Promise<number> {
  return (must(await doCreateUserGroup(cw.w.ctx, cw.w.as(cw.w.owner), { name, description: '', members: members.map((u) => u.id) }))).group_id;
}

const create = (cw: ChannelWorld, user: User, name: string, extra: Record<string, unknown>) =>
  doSubscribe.fromTransport(cw.w.ctx, cw.w.as(user), { subscriptions: names(name), ...extra });

describe('POST /users/me/subscriptions: channel group settings', () => {
  it('gives a new channel the reference defaults, its creator alone administering it', async () => {
    const cw = await channelWorld();
    await subscribe(cw.w, cw.member, ['plain']);
    const created = publishedOfType(cw.published, 'stream', 'create')[0]!.streams;
    expect(created[0]).toMatchObject({
      can_add_subscribers_group: id('role:nobody'),
      can_administer_channel_group: { direct_members: [cw.member.id], direct_subgroups: [] },
      can_create_topic_group: id('role:everyone'),
      can_delete_any_message_group: id('role:nobody'),
      can_delete_own_message_group: id('role:nobody'),
      can_move_messages_out_of_channel_group: id('role:nobody'),
      can_move_messages_within_channel_group: id('role:nobody'),
      can_remove_subscribers_group: id('role:administrators'),
      can_resolve_topics_group: id('role:nobody'),
      can_send_message_group: id('role:everyone'),
      can_subscribe_group: id('role:nobody'),
      stream_post_policy: 1,
      is_announcement_only: false,
    });
  });

  it('sets every setting from system groups, user-defined groups and anonymous groups', async () => {
    const cw = await channelWorld();
    const { w, admin, member, other } = cw;
    const team = await userGroup(cw, 'team', [member, other]);
    const values = {
      can_add_subscribers_group: team,
      can_administer_channel_group: { direct_members: [other.id], direct_subgroups: [id('role:moderators')] },
      can_create_topic_group: id('role:members'),
      can_delete_any_message_group: id('role:moderators'),
      can_delete_own_message_group: id('role:everyone'),
      can_move_messages_out_of_channel_group: id('role:fullmembers'),
      can_move_messages_within_channel_group: { direct_members: [], direct_subgroups: [team] },
      can_remove_subscribers_group: id('role:everyone'),
      can_resolve_topics_group: { direct_members: [member.id, member.id], direct_subgroups: [] },
      can_send_message_group: id('role:administrators'),
      can_subscribe_group: { direct_members: [], direct_subgroups: [] },
    };
    cw.drain();
    must(await create(cw, admin, 'configured', Object.fromEntries(Object.entries(values).map(([k, v]) => [k, json(v)]))));
    const expected = {
      ...values,
      // The canonical forms: one subgroup is that group, an empty group is nobody, members once.
      can_move_messages_within_channel_group: team,
      can_resolve_topics_group: { direct_members: [member.id], direct_subgroups: [] },
      can_subscribe_group: id('role:nobody'),
      stream_post_policy: 2,
      is_announcement_only: true,
    };
    const published = cw.drain();
    const event = publishedOfType(published, 'stream', 'create')[0]!;
    expect(event.streams[0]).toMatchObject(expected);
    expect((await channel(w, 'configured')).groupSettings).toMatchObject({ can_send_message_group: 'role:administrators', can_add_subscribers_group: team });
    // GET /streams and the register snapshot read the stored values.
    const state = await register(w, admin, { fetch_event_types: json(['subscription']) });
    expect(state.subscriptions.find((s: { name: string }) => s.name === 'configured')).toMatchObject(expected);
  });

  it('derives stream_post_policy from can_send_message_group', async () => {
    const cw = await channelWorld();
    const policies: [string, number][] = [['role:fullmembers', 3], ['role:moderators', 4], ['role:members', 1]];
    for (const [group, policy] of policies) {
      cw.drain();
      must(await create(cw, cw.admin, `posting ${policy} ${group}`, { can_send_message_group: json(id(group)) }));
      const event = publishedOfType(cw.drain(), 'stream', 'create')[0]!;
      expect(event.streams[0]).toMatchObject({ stream_post_policy: policy, is_announcement_only: false });
    }
  });

  it('announces a private channel to those its settings let see it', async () => {
    const cw = await channelWorld();
    const { w, admin, member, other } = cw;
    cw.drain();
    must(await create(cw, member, 'hideout', { invite_only: 'true', can_subscribe_group: json({ direct_members: [other.id], direct_subgroups: [] }) }));
    expect(recipientsOf(cw.drain(), 'stream', 'create')).toEqual([[w.owner.id, admin.id, member.id, other.id].sort((a, b) => a - b)]);
  });

  it('refuses unknown groups, other realms’ users and groups, inactive users and groups a setting may not name', async () => {
    const cw = await channelWorld();
    const { w, admin } = cw;
    const far = await secondRealm(w.ctx);
    cw.drain();
    expectBadRequest(await create(cw, admin, 'x', { can_send_message_group: '9999' }), 'Invalid user group');
    expectBadRequest(await create(cw, admin, 'x', { can_send_message_group: json({ direct_members: [far.owner.id], direct_subgroups: [] }) }), `Invalid user ID: ${far.owner.id}`);
    expectBadRequest(await create(cw, admin, 'x', { can_send_message_group: json({ direct_members: [admin.id], direct_subgroups: [4242] }) }), 'Invalid user group ID: 4242');
    expectBadRequest(await create(cw, admin, 'x', { can_add_subscribers_group: json(id('role:everyone')) }), "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.");
    expectBadRequest(await create(cw, admin, 'x', { can_administer_channel_group: json(id('role:everyone')) }), "'can_administer_channel_group' setting cannot be set to 'role:everyone' group.");
    expectBadRequest(await create(cw, admin, 'x', { can_subscribe_group: json(id('role:everyone')) }), "'can_subscribe_group' setting cannot be set to 'role:everyone' group.");
    expectBadRequest(await create(cw, admin, 'x', { can_send_message_group: json(id('role:internet')) }), "'can_send_message_group' setting cannot be set to 'role:internet' group.");
    expect(cw.drain()).toEqual([]);
    expect(await w.ctx.storage.read((tx) => tx.streams.byName(w.realm.id, 'x'))).toBeUndefined();
  });

  it('refuses malformed and mistyped values', async () => {
    const cw = await channelWorld();
    expectBadRequest(await create(cw, cw.admin, 'x', { can_send_message_group: '{nope' }), 'can_send_message_group is not valid JSON');
    for (const bad of ['"role:members"', 'true', '[1]', '{"direct_members": [1]}', '{"direct_members": "1", "direct_subgroups": []}', '1.5', '{"new": 1}']) {
      expect(failure(await create(cw, cw.admin, 'x', { can_create_topic_group: bad })).code).toBe('BAD_REQUEST');
    }
    expect(cw.drain()).toEqual([]);
  });

  it('wants exactly everyone to create topics where history is protected', async () => {
    const cw = await channelWorld();
    const { admin } = cw;
    const refused = { invite_only: 'true', can_create_topic_group: json(id('role:moderators')) };
    expectError(
      await create(cw, admin, 'p1', refused),
      'BAD_REQUEST',
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
      400,
      { parameters: 'history_public_to_subscribers, can_create_topic_group' },
    );
    expect(failure(await create(cw, admin, 'p1', { ...refused, can_create_topic_group: json({ direct_members: [admin.id], direct_subgroups: [id('role:everyone')] }) })).msg).toMatch(/^Unsupported parameter/);
    must(await create(cw, admin, 'p2', { invite_only: 'true', can_create_topic_group: json({ direct_members: [], direct_subgroups: [id('role:everyone')] }) }));
    must(await create(cw, admin, 'p3', { ...refused, history_public_to_subscribers: 'true' }));
    must(await create(cw, admin, 'p4', { can_create_topic_group: json(id('role:moderators')) }));
  });

  it('needs can_set_delete_message_policy_group to let anyone delete', async () => {
    const cw = await channelWorld();
    const { w, admin, member, moderator } = cw;
    expectBadRequest(await create(cw, member, 'd1', { can_delete_own_message_group: json(id('role:members')) }), 'Insufficient permission');
    expectBadRequest(await create(cw, member, 'd1', { can_delete_any_message_group: json(id('role:moderators')) }), 'Insufficient permission');
    // Nobody is the default, which needs no permission.
    must(await create(cw, member, 'd1', { can_delete_any_message_group: json(id('role:nobody')) }));
    must(await create(cw, moderator, 'd2', { can_delete_own_message_group: json(id('role:members')) }));
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { can_set_delete_message_policy_group: { new: id('role:nobody') } }));
    // Administrators always may.
    must(await create(cw, admin, 'd3', { can_delete_own_message_group: json(id('role:members')) }));
    expectBadRequest(await create(cw, moderator, 'd4', { can_delete_own_message_group: json(id('role:members')) }), 'Insufficient permission');
  });

  it('ignores the settings for channels that already exist, as the reference parses them only to create', async () => {
    const cw = await channelWorld();
    await subscribe(cw.w, cw.member, ['existing']);
    const before = await channel(cw.w, 'existing');
    must(await create(cw, cw.other, 'existing', { can_send_message_group: '9999' }));
    expect((await channel(cw.w, 'existing')).groupSettings).toEqual(before.groupSettings);
  });

  it('checks the settings before the creation permission, as the reference does', async () => {
    const cw = await channelWorld();
    must(await doUpdateRealm(cw.w.ctx, cw.w.as(cw.w.owner), { can_create_public_channel_group: { new: id('role:administrators') } }));
    expectBadRequest(await create(cw, cw.member, 'y', { can_send_message_group: '9999' }), 'Invalid user group');
    expectBadRequest(await create(cw, cw.member, 'y', { can_send_message_group: json(id('role:members')) }), 'Insufficient permission');
  });
});
