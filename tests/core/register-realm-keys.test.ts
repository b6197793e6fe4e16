/**
 * The register's realm keys added for the official clients: the new realm settings (read
 * receipts, presence, guest display) through PATCH /realm with their events and errors, the
 * legacy integer policies derived from group settings, the fixed server keys, and the section
 * names the reference accepts in fetch_event_types.
 */
import { doRegister, doUpdateRealm, type PublishedEvent, type User, serverEmojiDataFile, systemGroupId } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { expectBadRequest, expectError } from './fixtures.js';

async function setup() {
  const w = await makeWorld({ config: { timers: false } });
  const admin = await w.addUser({ email: 'admin@example.com', role: 200 });
  const mod = await w.addUser({ email: 'mod@example.com', role: 300 });
  const member = await w.addUser({ email: 'member@example.com' });
  const published: PublishedEvent[] = [];
  w.ctx.events.subscribe((e) => published.push(e));
  return { w, admin, mod, member, published };
}

/** A register as a new request makes it, with the realm as stored now. */
// biome-ignore lint/suspicious/noExplicitAny: register responses are JSON checked field by field.
async function register(w: World, user: User | null, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
  return must(await doRegister(w.ctx, { realm, user }, params));
}

const SWITCHES = ['enable_read_receipts', 'presence_disabled', 'enable_guest_user_indicator', 'enable_guest_user_dm_warning'] as const;

describe('realm settings the clients read', () => {
  it('start at the reference defaults', async () => {
    const { w, member } = await setup();
    expect(await register(w, member, { fetch_event_types: '["realm"]' })).toMatchObject({
      realm_enable_read_receipts: true,
      realm_presence_disabled: false,
      realm_enable_guest_user_indicator: true,
      realm_enable_guest_user_dm_warning: true,
    });
  });

  it('are changed by administrators, announced as update_dict to every user, and registered from then on', async () => {
    const { w, admin, member, published } = await setup();
    const params = Object.fromEntries(SWITCHES.map((name) => [name, 'false']));
    params.presence_disabled = 'true';
    const result = must(await doUpdateRealm(w.ctx, w.as(admin), params));
    expect(result).toEqual({ enable_read_receipts: false, presence_disabled: true, enable_guest_user_indicator: false, enable_guest_user_dm_warning: false });
    const events = published.map((p) => p.event);
    expect(events).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { enable_read_receipts: false } },
      { type: 'realm', op: 'update_dict', property: 'default', data: { presence_disabled: true } },
      { type: 'realm', op: 'update_dict', property: 'default', data: { enable_guest_user_indicator: false } },
      { type: 'realm', op: 'update_dict', property: 'default', data: { enable_guest_user_dm_warning: false } },
    ]);
    const everyone = [w.owner.id, admin.id, member.id];
    for (const p of published) expect([...p.userIds].sort()).toEqual(expect.arrayContaining(everyone));
    expect(await register(w, member, { fetch_event_types: '["realm"]' })).toMatchObject({
      realm_enable_read_receipts: false,
      realm_presence_disabled: true,
      realm_enable_guest_user_indicator: false,
      realm_enable_guest_user_dm_warning: false,
    });
    // Setting a value it already has changes and announces nothing.
    published.length = 0;
    const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
    expect(must(await doUpdateRealm(w.ctx, { realm, user: admin }, { enable_read_receipts: false }))).toEqual({});
    expect(published).toEqual([]);
  });

  it('refuse bad values and too low a role, writing nothing', async () => {
    const { w, mod, member, admin, published } = await setup();
    for (const name of SWITCHES) {
      expectBadRequest(await doUpdateRealm(w.ctx, w.as(admin), { [name]: 'maybe' }), `${name} is not valid JSON`);
      expectBadRequest(await doUpdateRealm(w.ctx, w.as(admin), { [name]: '1' }), `${name} is not a boolean`);
      expectBadRequest(await doUpdateRealm(w.ctx, w.as(admin), { [name]: '"true"' }), `${name} is not a boolean`);
      for (const user of [mod, member]) {
        expectError(await doUpdateRealm(w.ctx, w.as(user), { [name]: 'false' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      }
    }
    // A request with one bad value writes none of its good ones.
    expectBadRequest(await doUpdateRealm.fromTransport(w.ctx, w.as(admin), { enable_read_receipts: 'false', presence_disabled: 'nope' }), 'presence_disabled is not valid JSON');
    expect(published).toEqual([]);
    expect(await register(w, member, { fetch_event_types: '["realm"]' })).toMatchObject({ realm_enable_read_receipts: true, realm_presence_disabled: false });
  });

  it('tell spectators presence and editing are off, in a full register too', async () => {
    const { w, admin } = await setup();
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { enable_spectator_access: true }));
    expect(await register(w, null, { fetch_event_types: '["realm"]' })).toMatchObject({ realm_presence_disabled: true, realm_allow_message_editing: false });
    expect(await register(w, admin, { fetch_event_types: '["realm"]' })).toMatchObject({ realm_presence_disabled: false, realm_allow_message_editing: true });
    expect(await register(w, null)).toMatchObject({
      realm_presence_disabled: true,
      recent_private_conversations: [],
      realm_user_groups: expect.any(Array),
      stop_words: [],
      server_emoji_data_url: expect.stringMatching(/^http:\/\/chat\.example\.com\/static\//),
    });
  });
});

describe('legacy integer policies', () => {
  it('follow the group settings that replaced them', async () => {
    const { w, admin } = await setup();
    const policies = async () => {
      const state = await register(w, admin, { fetch_event_types: '["realm"]' });
      return [state.realm_wildcard_mention_policy, state.realm_create_public_stream_policy, state.realm_create_private_stream_policy, state.realm_create_web_public_stream_policy];
    };
    // Defaults: mentions by administrators (5), channels by members (1), web-public by owners (7).
    expect(await policies()).toEqual([5, 1, 1, 7]);
    const change = (name: string, group: number) => doUpdateRealm(w.ctx, w.as(w.owner), { [name]: JSON.stringify({ new: group }) });
    must(await change('can_mention_many_users_group', systemGroupId('role:moderators')));
    must(await change('can_create_public_channel_group', systemGroupId('role:fullmembers')));
    must(await change('can_create_private_channel_group', systemGroupId('role:administrators')));
    must(await change('can_create_web_public_channel_group', systemGroupId('role:administrators')));
    expect(await policies()).toEqual([7, 3, 2, 2]);
    // A group of people rather than a role: the reference's fallbacks (everyone; members).
    const people = JSON.stringify({ new: { direct_members: [admin.id], direct_subgroups: [] } });
    must(await doUpdateRealm.fromTransport(w.ctx, w.as(w.owner), { can_mention_many_users_group: people, can_create_private_channel_group: people }));
    expect(await policies()).toEqual([1, 3, 1, 2]);
  });
});

describe('fixed server keys', () => {
  it('name the default external account providers and the emoji data file', async () => {
    const { w, member } = await setup();
    const state = await register(w, member, { fetch_event_types: '["realm"]' });
    expect(state.realm_default_external_accounts.github).toEqual({ text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub username', hint: '' });
    expect(state.realm_default_external_accounts.mastodon).toEqual({ text: 'Mastodon', url_pattern: '%(username)s', name: 'Mastodon profile', hint: 'The full URL to your profile' });
    expect(state.realm_default_external_accounts.youtube.name).toBe('YouTube handle');
    expect(Object.keys(state.realm_default_external_accounts)).toHaveLength(21);
    expect(state.server_emoji_data_url).toBe(`http://chat.example.com/static/generated/emoji/${serverEmojiDataFile().fileName}`);
    expect(state.server_emoji_data_url).toMatch(/\/emoji_api\.[0-9a-f]{16}\.json$/);
    expect(state).toMatchObject({ server_thumbnail_formats: [], realm_bot_domain: 'chat.example.com', realm_push_notifications_enabled: false });
    expect(state.realm_available_video_chat_providers).toEqual({ disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } });
  });

  it('describe every permission setting as the server enforces it', async () => {
    const { w, member } = await setup();
    const { server_supported_permission_settings: supported, ...state } = await register(w, member, { fetch_event_types: '["realm"]' });
    expect(Object.keys(supported)).toEqual(['realm', 'stream', 'group']);
    // Every realm group setting, each of which the realm section carries.
    expect(Object.keys(supported.realm)).toHaveLength(24);
    for (const name of Object.keys(supported.realm)) expect(state, name).toHaveProperty(`realm_${name}`);
    expect(supported.realm.can_access_all_users_group).toEqual({
      require_system_group: true,
      allow_internet_group: false,
      allow_nobody_group: false,
      allow_everyone_group: true,
      default_group_name: 'role:everyone',
      default_for_system_groups: null,
      allowed_system_groups: ['role:everyone', 'role:members'],
    });
    expect(supported.realm.can_mention_many_users_group).toMatchObject({ default_group_name: 'role:administrators', allow_everyone_group: true, allowed_system_groups: [] });
    expect(supported.stream.can_administer_channel_group).toMatchObject({ default_group_name: 'stream_creator_or_nobody', allow_everyone_group: false });
    expect(supported.stream.can_send_message_group.default_group_name).toBe('role:everyone');
    expect(supported.group.can_manage_group).toMatchObject({ default_group_name: 'group_creator', default_for_system_groups: 'role:nobody' });
    expect(supported.group.can_leave_group).toMatchObject({ default_group_name: 'role:everyone', allow_everyone_group: true });
  });

  it('the emoji data lists every unicode emoji by code with its canonical name first', () => {
    const file = serverEmojiDataFile();
    const data = JSON.parse(new TextDecoder().decode(file.bytes)) as { code_to_names: Record<string, string[]> };
    expect(Object.keys(data)).toEqual(['code_to_names']);
    expect(data.code_to_names['1f600']).toEqual(['grinning', 'happy']);
    expect(data.code_to_names['1f44d']?.[0]).toBe('+1');
    expect(Object.keys(data.code_to_names).length).toBeGreaterThan(1500);
    expect(serverEmojiDataFile()).toBe(file);
  });
});

describe('fetch_event_types names', () => {
  const keysFor = async (w: World, user: User, name: string) => {
    const all = new Set(Object.keys(await register(w, user, { fetch_event_types: '[]' })));
    return Object.keys(await register(w, user, { fetch_event_types: JSON.stringify([name]) })).filter((key) => !all.has(key)).sort();
  };

  it('select the sections under the reference keys', async () => {
    const { w, member } = await setup();
    const expected: Record<string, string[]> = {
      realm_user_groups: ['realm_user_groups'],
      user_group: ['realm_user_groups'],
      recent_private_conversations: ['recent_private_conversations'],
      stop_words: ['stop_words'],
      realm_playgrounds: ['realm_playgrounds'],
      default_stream_groups: ['realm_default_stream_groups'],
      onboarding_steps: ['navigation_tour_video_url', 'onboarding_steps'],
      realm_embedded_bots: ['realm_embedded_bots'],
      realm_incoming_webhook_bots: ['realm_incoming_webhook_bots'],
      realm_billing: ['realm_billing'],
      giphy: ['giphy_api_key'],
    };
    for (const [name, keys] of Object.entries(expected)) expect(await keysFor(w, member, name), name).toEqual(keys);
    const state = await register(w, member, { fetch_event_types: JSON.stringify(Object.keys(expected)) });
    expect(state).toMatchObject({
      stop_words: [],
      realm_playgrounds: [],
      realm_default_stream_groups: [],
      onboarding_steps: [],
      navigation_tour_video_url: null,
      realm_embedded_bots: [],
      realm_incoming_webhook_bots: [],
      realm_billing: { has_pending_sponsorship_request: false },
      giphy_api_key: '',
      recent_private_conversations: [],
    });
    expect(state.realm_user_groups.length).toBeGreaterThan(0);
  });

  it('update_display_settings gives the legacy top-level settings with the time zone', async () => {
    const { w, member } = await setup();
    const state = await register(w, member, { fetch_event_types: '["update_display_settings"]' });
    expect(state).toMatchObject({ timezone: '', twenty_four_hour_time: expect.anything() });
    const modern = await register(w, member, { fetch_event_types: '["update_display_settings"]', client_capabilities: '{"user_settings_object": true}' });
    expect(modern).not.toHaveProperty('timezone');
  });
});
