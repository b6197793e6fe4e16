/**
 * PATCH /realm: the changed settings in the response, realm/update_dict events to every active
 * user, register reflecting the stored values, and the reference's errors (nothing written or
 * published on failure).
 */
import { doRegister, doSubscribe, doUpdateRealm, systemGroupId } from '@teamchat/core/internal';
import type { LoosePublishedEvent as PublishedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest, expectError, secondRealm, setUser } from './fixtures.js';

async function setup() {
  const w = await makeWorld({ config: { timers: false } });
  const admin = await w.addUser({ email: 'admin@example.com', role: 200 });
  const mod = await w.addUser({ email: 'mod@example.com', role: 300 });
  const member = await w.addUser({ email: 'member@example.com' });
  const gone = await w.addUser({ email: 'gone@example.com' });
  await setUser(w.ctx, gone, { isActive: false });
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((e) => published.push(e));
  // Register as a new request would: with the realm as stored now.
  const realmState = async () => {
    const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
    return must(await doRegister(w.ctx, { realm, user: member }, { fetch_event_types: ["realm"] }));
  };
  return { w, admin, mod, member, gone, published, realmState };
}

describe('PATCH /realm', () => {
  it('changes plain settings, answers what changed and announces each as update_dict to every active user', async () => {
    const { w, admin, member, mod, gone, published, realmState } = await setup();
    const result = must(
      await doUpdateRealm(w.ctx, w.as(admin), {
        name: 'New Org',
        description: 'Hello *world*',
        message_content_edit_limit_seconds: '"unlimited"',
        move_messages_within_stream_limit_seconds: '3600',
        allow_message_editing: false,
        message_edit_history_visibility_policy: 'moves',
        topics_policy: 'disable_empty_topic',
        default_language: 'de',
        welcome_message_custom_text: 'Welcome!',
        enable_spectator_access: true,
      }),
    );
    expect(result).toEqual({
      message_content_edit_limit_seconds: null,
      move_messages_within_stream_limit_seconds: 3600,
      allow_message_editing: false,
      message_edit_history_visibility_policy: 'updated',
      topics_policy: 'updated',
      default_language: 'updated',
      welcome_message_custom_text: 'updated',
      name: 'updated',
      description: 'updated',
      enable_spectator_access: true,
    });
    const datas = published.map((p) => p.event);
    expect(datas).toContainEqual({ type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } });
    expect(datas).toContainEqual({ type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: 'disable_empty_topic', mandatory_topics: true } });
    expect(datas).toContainEqual({ type: 'realm', op: 'update_dict', property: 'default', data: { name: 'New Org' } });
    expect(datas).toContainEqual({ type: 'realm', op: 'update_dict', property: 'default', data: { description: '<p>Hello <em>world</em></p>' } });
    expect(published).toHaveLength(10);
    for (const p of published) expect([...p.userIds].sort((a, b) => a - b)).toEqual([w.owner.id, admin.id, mod.id, member.id].sort((a, b) => a - b));
    expect(published.flatMap((p) => p.userIds)).not.toContain(gone.id);
    const state = await realmState();
    expect(state).toMatchObject({
      realm_name: 'New Org',
      realm_description: '<p>Hello <em>world</em></p>',
      realm_message_content_edit_limit_seconds: null,
      realm_move_messages_within_stream_limit_seconds: 3600,
      realm_allow_message_editing: false,
      realm_message_edit_history_visibility_policy: 'moves',
      realm_topics_policy: 'disable_empty_topic',
      realm_mandatory_topics: true,
      realm_default_language: 'de',
      realm_welcome_message_custom_text: 'Welcome!',
      realm_enable_spectator_access: true,
    });
    // Only non-defaults are stored; setting a default back drops it.
    published.length = 0;
    must(await doUpdateRealm(w.ctx, w.as(admin), { allow_message_editing: true, default_language: 'de' }));
    expect(published.map((p) => p.event)).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: true } }]);
    const stored = await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id));
    expect(stored!.settings).not.toHaveProperty('allow_message_editing');
    expect(stored!.settings.default_language).toBe('de');
  });

  it('changes group settings with {new, old}, canonicalises, and skips unchanged values', async () => {
    const { w, admin, member, published, realmState } = await setup();
    const change = (value: unknown) => JSON.stringify(value);
    const result = must(
      await doUpdateRealm.fromTransport(w.ctx, w.as(admin), {
        can_add_custom_emoji_group: change({ new: { direct_members: [], direct_subgroups: [systemGroupId('role:moderators')] }, old: systemGroupId('role:members') }),
        can_delete_own_message_group: change({ new: { direct_members: [member.id], direct_subgroups: [systemGroupId('role:administrators')] } }),
        can_move_messages_between_topics_group: change({ new: systemGroupId('role:everyone') }),
      }),
    );
    const anon = { direct_members: [member.id], direct_subgroups: [systemGroupId('role:administrators')] };
    expect(result).toEqual({ can_add_custom_emoji_group: systemGroupId('role:moderators'), can_delete_own_message_group: anon });
    expect(published.map((p) => p.event.data)).toEqual([{ can_add_custom_emoji_group: systemGroupId('role:moderators') }, { can_delete_own_message_group: anon }]);
    expect(await realmState()).toMatchObject({ realm_can_add_custom_emoji_group: systemGroupId('role:moderators'), realm_can_delete_own_message_group: anon });
    published.length = 0;
    expectError(
      await doUpdateRealm.fromTransport(w.ctx, w.as(admin), { can_add_custom_emoji_group: change({ new: systemGroupId('role:members'), old: systemGroupId('role:members') }) }),
      'EXPECTATION_MISMATCH',
      "'old' value does not match the expected value.",
    );
    expectBadRequest(
      await doUpdateRealm.fromTransport(w.ctx, w.as(admin), { can_add_custom_emoji_group: change({ new: systemGroupId('role:everyone') }) }),
      "'can_add_custom_emoji_group' setting cannot be set to 'role:everyone' group.",
    );
    expectBadRequest(await doUpdateRealm.fromTransport(w.ctx, w.as(admin), { can_add_custom_emoji_group: change({ new: 9999 }) }), 'Invalid user group');
    expect(published).toEqual([]);
  });

  it('sets and clears the channel settings; the channel must be an active channel of the realm', async () => {
    const { w, admin, published, realmState } = await setup();
    must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"},{"name":"mods"}] }));
    must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"secret"}], invite_only: true }));
    const idOf = (name: string) => w.ctx.storage.read(async (tx) => (await tx.streams.byName(w.realm.id, name))!.id);
    const [general, secret] = [await idOf('general'), await idOf('secret')];
    expect(must(await doUpdateRealm(w.ctx, w.as(admin), { new_stream_announcements_stream_id: general, moderation_request_channel_id: secret }))).toEqual({
      new_stream_announcements_stream_id: general,
      moderation_request_channel_id: secret,
    });
    expect(await realmState()).toMatchObject({ realm_new_stream_announcements_stream_id: general, realm_moderation_request_channel_id: secret });
    must(await doUpdateRealm(w.ctx, w.as(admin), { new_stream_announcements_stream_id: -1 }));
    expect(await realmState()).toMatchObject({ realm_new_stream_announcements_stream_id: -1 });
    published.length = 0;
    expectBadRequest(await doUpdateRealm(w.ctx, w.as(admin), { moderation_request_channel_id: general }), 'Moderation request channel must be private.');
    expectBadRequest(await doUpdateRealm(w.ctx, w.as(admin), { signup_announcements_stream_id: 9999 }), 'Invalid channel ID');
    const other = await secondRealm(w.ctx);
    must(await doSubscribe(w.ctx, { realm: other.realm, user: other.owner }, { subscriptions: [{"name":"theirs"}] }));
    const theirs = await w.ctx.storage.read(async (tx) => (await tx.streams.byName(other.realm.id, 'theirs'))!.id);
    published.length = 0;
    expectBadRequest(await doUpdateRealm(w.ctx, w.as(admin), { signup_announcements_stream_id: theirs }), 'Invalid channel ID');
    expect(published).toEqual([]);
  });

  it('is for administrators, some settings for owners, with the reference codes', async () => {
    const { w, admin, mod, member, published } = await setup();
    expectError(await doUpdateRealm(w.ctx, w.as(member), { name: 'x' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await doUpdateRealm(w.ctx, w.as(mod), { name: 'x' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    for (const name of ['can_create_groups', 'can_invite_users_group', 'can_manage_all_groups', 'create_multiuse_invite_group', 'can_manage_billing_group']) {
      expectError(await doUpdateRealm(w.ctx, w.as(admin), { [name]: JSON.stringify({ new: 1 }) }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    }
    expectError(await doUpdateRealm(w.ctx, w.as(admin), { waiting_period_threshold: 3 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(must(await doUpdateRealm(w.ctx, w.as(w.owner), { waiting_period_threshold: 3, can_invite_users_group: { new: systemGroupId('role:administrators') } }))).toEqual({
      waiting_period_threshold: 3,
      can_invite_users_group: systemGroupId('role:administrators'),
    });
    expectError(await doUpdateRealm(w.ctx, { realm: w.realm, user: null }, { name: 'x' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(published.filter((p) => p.event.data && 'name' in (p.event.data as object))).toEqual([]);
  });

  it('refuses bad values with the reference texts and writes nothing', async () => {
    const { w, admin, published } = await setup();
    const bad = async (params: Record<string, string>, code: string, msg: string, data = {}) => expectError(await doUpdateRealm(w.ctx, w.as(admin), params), code, msg, 400, data);
    await bad({ message_content_edit_limit_seconds: '0' }, 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_content_edit_limit_seconds': 0", { var_name: 'message_content_edit_limit_seconds' });
    await bad({ message_content_delete_limit_seconds: '"forever"' }, 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_content_delete_limit_seconds': forever", {
      var_name: 'message_content_delete_limit_seconds',
    });
    await bad({ move_messages_between_streams_limit_seconds: 'abc' }, 'BAD_REQUEST', 'move_messages_between_streams_limit_seconds is not valid JSON');
    await bad({ allow_message_editing: '"yes"' }, 'BAD_REQUEST', 'allow_message_editing is not a boolean');
    await bad({ default_language: 'xx' }, 'BAD_REQUEST', "Invalid language 'xx'");
    await bad({ video_chat_provider: '42' }, 'BAD_REQUEST', 'Invalid video_chat_provider 42');
    await bad({ topics_policy: 'sometimes' }, 'BAD_REQUEST', 'Invalid topics_policy');
    await bad({ message_edit_history_visibility_policy: 'some' }, 'BAD_REQUEST', 'Invalid message_edit_history_visibility_policy');
    await bad({ name: 'n'.repeat(41) }, 'BAD_REQUEST', 'name is too long (limit: 40 characters)');
    await bad({ welcome_message_custom_text: 'w'.repeat(8001) }, 'BAD_REQUEST', 'welcome_message_custom_text is too long (limit: 8000 characters)');
    await bad({ can_add_custom_emoji_group: '{"new": "members"}' }, 'BAD_REQUEST', 'Invalid can_add_custom_emoji_group["new"]');
    await bad({ can_add_custom_emoji_group: '{"old": 1}' }, 'BAD_REQUEST', 'can_add_custom_emoji_group["new"] field is missing');
    await bad({ can_add_custom_emoji_group: '{nope' }, 'BAD_REQUEST', 'can_add_custom_emoji_group is not valid JSON');
    // A failing setting anywhere in the request leaves the valid ones unwritten.
    await bad({ name: 'Fine', default_language: 'xx' }, 'BAD_REQUEST', "Invalid language 'xx'");
    await bad({ allow_message_editing: 'false', can_add_custom_emoji_group: JSON.stringify({ new: 9999 }) }, 'BAD_REQUEST', 'Invalid user group');
    const stored = await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id));
    expect(stored!.name).toBe('Test Org');
    expect(stored!.settings).toEqual({});
    expect(published).toEqual([]);
  });
});
