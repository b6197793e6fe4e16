/**
 * POST /register (SHAPES.md 2, FACTS.md 5): the keys every response carries, the idle timeout,
 * section selection, the realm_user and realm_bot snapshots, client_gravatar, bad input and
 * spectators. Also that a snapshot and its queue's events never miss or repeat a change.
 */
import { doRegister, doUpdateUser, getEvents, getUsers, type QueuedEvent, type User, updateRealmAsOperator } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { applyEvents, normalized } from './apply-events.js';
import { expectBadRequest, expectError, isoAt, setUser, T0, fakeClock } from './fixtures.js';

async function world(options: Parameters<typeof makeWorld>[0] = {}) {
  const w = await makeWorld({ clock: fakeClock(), ...options, config: { timers: false, ...options.config } });
  const admin = await w.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const moderator = await w.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
  const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const guest = await w.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  const bot = await w.addUser({ email: 'mel-bot@example.com', fullName: 'Mel Bot', bot: true, botOwnerId: member.id });
  const adminBot = await w.addUser({ email: 'ada-bot@example.com', fullName: 'Ada Bot', bot: true, botOwnerId: admin.id });
  return { w, admin, moderator, member, guest, bot, adminBot };
}

// biome-ignore lint/suspicious/noExplicitAny: register responses are JSON checked field by field.
async function register(w: World, user: User | null, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return must(await doRegister(w.ctx, w.as(user), params));
}

const ALWAYS = [
  'queue_id',
  'last_event_id',
  'idle_queue_timeout_secs',
  'service_feature_level',
  'service_version',
  'service_merge_base',
  'zulip_feature_level',
  'zulip_version',
  'zulip_merge_base',
  'max_message_length',
  'max_topic_length',
  'event_queue_longpoll_timeout_seconds',
  'server_typing_started_wait_period_milliseconds',
  'server_typing_stopped_wait_period_milliseconds',
  'server_typing_started_expiry_period_milliseconds',
];

const REALM_USER_KEYS = [
  'realm_users',
  'realm_non_active_users',
  'cross_realm_bots',
  'user_id',
  'email',
  'delivery_email',
  'full_name',
  'avatar_source',
  'avatar_url',
  'avatar_url_medium',
  'is_admin',
  'is_owner',
  'is_moderator',
  'is_guest',
  'can_create_streams',
  'can_create_public_streams',
  'can_create_private_streams',
  'can_create_web_public_streams',
  'can_subscribe_other_users',
  'can_invite_others_to_realm',
];

const sorted = (keys: Iterable<string>) => [...keys].sort();

describe('keys every response carries', () => {
  it('with no section fetched: the queue, the version and the limits', async () => {
    const { w, member } = await world();
    const body = await register(w, member, { fetch_event_types: '[]' });
    expect(sorted(Object.keys(body))).toEqual(sorted(ALWAYS));
    expect(body).toEqual({
      queue_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      last_event_id: -1,
      idle_queue_timeout_secs: 600,
      service_feature_level: 512,
      service_version: expect.any(String),
      service_merge_base: expect.any(String),
      zulip_feature_level: 512,
      zulip_version: body.service_version,
      zulip_merge_base: body.service_merge_base,
      max_message_length: 10000,
      max_topic_length: 60,
      event_queue_longpoll_timeout_seconds: 90,
      server_typing_started_wait_period_milliseconds: 30000,
      server_typing_stopped_wait_period_milliseconds: 12000,
      server_typing_started_expiry_period_milliseconds: 45000,
    });
    // Clients time out their long-polls after this: it must exceed the longest heartbeat delay.
    const { heartbeatSeconds, heartbeatJitterSeconds } = w.ctx.config;
    expect(body.event_queue_longpoll_timeout_seconds).toBeGreaterThan(heartbeatSeconds + heartbeatJitterSeconds);
  });

  it('each register makes a new queue for the user', async () => {
    const { w, member } = await world();
    const a = await register(w, member, { fetch_event_types: '[]' });
    const b = await register(w, member, { fetch_event_types: '[]' });
    expect(a.queue_id).not.toBe(b.queue_id);
    expect(w.ctx.queues.get(a.queue_id, member.id).isOk()).toBe(true);
    expect(w.ctx.queues.get(b.queue_id, member.id).isOk()).toBe(true);
  });

  it('the limits follow the server configuration', async () => {
    const { w, member } = await world({ config: { maxMessageLength: 500, maxTopicLength: 30, eventQueueLongpollTimeoutSeconds: 120 } });
    expect(await register(w, member, { fetch_event_types: '["realm"]' })).toMatchObject({
      max_message_length: 500,
      max_topic_length: 30,
      event_queue_longpoll_timeout_seconds: 120,
    });
  });
});

describe('idle_queue_timeout (FL 481)', () => {
  const timeout = async (value: unknown) => {
    const { w, member } = await world();
    const body = await register(w, member, { fetch_event_types: '[]', ...(value === undefined ? {} : { idle_queue_timeout: value }) });
    const queue = w.ctx.queues.get(body.queue_id, member.id)._unsafeUnwrap();
    expect(queue.options.idleTimeoutSecs).toBe(body.idle_queue_timeout_secs);
    return body.idle_queue_timeout_secs;
  };

  it('defaults to 600 s', async () => expect(await timeout(undefined)).toBe(600));
  it('"mobile" is 12 hours, bare or as JSON text', async () => {
    expect(await timeout('mobile')).toBe(43200);
    expect(await timeout('"mobile"')).toBe(43200);
  });
  it('takes seconds as given', async () => {
    expect(await timeout('30')).toBe(30);
    expect(await timeout(3600)).toBe(3600);
  });
  it('is capped at 7 days', async () => {
    expect(await timeout('604800')).toBe(604800);
    expect(await timeout('604801')).toBe(604800);
    expect(await timeout(10 ** 9)).toBe(604800);
  });

  it('refuses anything else', async () => {
    const { w, member } = await world();
    const bad = async (value: string) => doRegister.fromTransport(w.ctx, w.as(member), { idle_queue_timeout: value });
    expectBadRequest(await bad('abc'), 'idle_queue_timeout is not valid JSON');
    expectBadRequest(await bad('0'), 'idle_queue_timeout is too small');
    expectBadRequest(await bad('-5'), 'idle_queue_timeout is too small');
    expectBadRequest(await bad('1.5'), 'idle_queue_timeout is not an integer');
    expectBadRequest(await bad('"desktop"'), 'idle_queue_timeout is not an integer');
    expect(w.ctx.queues.size).toBe(0);
  });
});

describe('fetch_event_types and event_types select sections', () => {
  it('everything when neither is given', async () => {
    const { w, member } = await world();
    const body = await register(w, member);
    for (const key of [...ALWAYS, ...REALM_USER_KEYS, 'realm_bots', 'realm_name', 'realm_uuid']) expect(body).toHaveProperty(key);
  });

  it('realm: the realm settings and limits only', async () => {
    const { w, member } = await world();
    const body = await register(w, member, { fetch_event_types: '["realm"]' });
    expect(body).toMatchObject({
      realm_name: 'Test Org',
      realm_url: 'http://chat.example.com',
      realm_uri: 'http://chat.example.com',
      realm_date_created: Math.floor(T0 / 1000),
      max_stream_name_length: 60,
    });
    expect(body).not.toHaveProperty('realm_users');
    expect(body).not.toHaveProperty('realm_bots');
  });

  it('realm_user: the users and the own keys only', async () => {
    const { w, member } = await world();
    const body = await register(w, member, { fetch_event_types: '["realm_user"]' });
    expect(sorted(Object.keys(body))).toEqual(sorted([...ALWAYS, ...REALM_USER_KEYS]));
  });

  it('realm_bot: the bots only', async () => {
    const { w, member } = await world();
    const body = await register(w, member, { fetch_event_types: '["realm_bot"]' });
    expect(sorted(Object.keys(body))).toEqual(sorted([...ALWAYS, 'realm_bots']));
  });

  it('event_types selects the sections when fetch_event_types is absent', async () => {
    const { w, member } = await world();
    const body = await register(w, member, { event_types: '["realm_bot"]' });
    expect(sorted(Object.keys(body))).toEqual(sorted([...ALWAYS, 'realm_bots']));
  });

  it('fetch_event_types wins over event_types, which still filters the queue', async () => {
    const { w, admin, member } = await world();
    const body = await register(w, member, { event_types: '["realm_bot"]', fetch_event_types: '["realm_user"]' });
    expect(body).toHaveProperty('realm_users');
    expect(body).not.toHaveProperty('realm_bots');
    must(await doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: 'Not Queued' }));
    expect(must(await getEvents(w.ctx, w.as(member), { queue_id: body.queue_id, dont_block: true }))).toEqual({
      queue_id: body.queue_id,
      events: [],
    });
  });

  it('unknown types are ignored; null means all', async () => {
    const { w, member } = await world();
    const unknown = await register(w, member, { fetch_event_types: '["no_such_section", "realm_bot"]' });
    expect(sorted(Object.keys(unknown))).toEqual(sorted([...ALWAYS, 'realm_bots']));
    const all = await register(w, member, { fetch_event_types: 'null' });
    expect(all).toHaveProperty('realm_users');
    expect(all).toHaveProperty('realm_name');
  });

  it('server_generation names the server, not the register', async () => {
    const clock = fakeClock();
    const { w, member } = await world({ clock });
    const first = await register(w, member, { fetch_event_types: '["realm"]' });
    clock.advance(3_600_000);
    const second = await register(w, member, { fetch_event_types: '["realm"]' });
    expect(second.server_generation).toBe(first.server_generation);
  });
});

describe('the realm_user snapshot', () => {
  it('active users (bots included) and deactivated users, as GET /users formats them', async () => {
    const { w, member, guest } = await world();
    await setUser(w.ctx, guest, { isActive: false });
    for (const clientGravatar of [true, false]) {
      const body = await register(w, member, { fetch_event_types: '["realm_user"]', client_gravatar: clientGravatar });
      const members = must(
        await getUsers(w.ctx, w.as(member), { client_gravatar: clientGravatar, include_custom_profile_fields: true }),
      ).members;
      expect(body.realm_users).toEqual(members.filter((u) => u.is_active));
      expect(body.realm_non_active_users).toEqual(members.filter((u) => !u.is_active));
      expect(body.realm_non_active_users.map((u: { user_id: number }) => u.user_id)).toEqual([guest.id]);
      expect(body.cross_realm_bots).toEqual([]);
    }
  });

  it('a user record has the shape of SHAPES.md 5.8', async () => {
    const { w, member, bot } = await world();
    const body = await register(w, member, { fetch_event_types: '["realm_user"]', client_gravatar: 'false' });
    const me = body.realm_users.find((u: { user_id: number }) => u.user_id === member.id);
    expect(me).toEqual({
      user_id: member.id,
      email: 'mel@example.com',
      delivery_email: 'mel@example.com',
      full_name: 'Mel Member',
      avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/),
      avatar_version: 1,
      date_joined: isoAt(T0),
      timezone: '',
      role: 400,
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      is_imported_stub: false,
      profile_data: {},
    });
    const botRecord = body.realm_users.find((u: { user_id: number }) => u.user_id === bot.id);
    expect(botRecord).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: member.id });
    expect(botRecord).not.toHaveProperty('profile_data');
  });

  it('the own keys of a member, a moderator, an administrator, the owner and a guest', async () => {
    const { w, admin, moderator, member, guest } = await world();
    const own = async (user: User) => {
      const body = await register(w, user, { fetch_event_types: '["realm_user"]' });
      const keys = Object.fromEntries(REALM_USER_KEYS.slice(3).map((key) => [key, body[key]]));
      return keys;
    };
    const base = (user: User) => ({
      user_id: user.id,
      email: user.deliveryEmail,
      delivery_email: user.deliveryEmail,
      full_name: user.fullName,
      avatar_source: 'G',
      // The own avatar is always a real URL, whatever client_gravatar says.
      avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//),
      avatar_url_medium: expect.stringMatching(/&s=500&/),
      can_create_web_public_streams: false,
    });
    const memberRights = {
      can_create_streams: true,
      can_create_public_streams: true,
      can_create_private_streams: true,
      can_subscribe_other_users: true,
      can_invite_others_to_realm: true,
    };
    expect(await own(member)).toEqual({ ...base(member), ...memberRights, is_admin: false, is_owner: false, is_moderator: false, is_guest: false });
    expect(await own(moderator)).toEqual({ ...base(moderator), ...memberRights, is_admin: false, is_owner: false, is_moderator: true, is_guest: false });
    expect(await own(admin)).toEqual({ ...base(admin), ...memberRights, is_admin: true, is_owner: false, is_moderator: true, is_guest: false });
    expect(await own(w.owner)).toEqual({ ...base(w.owner), ...memberRights, is_admin: true, is_owner: true, is_moderator: true, is_guest: false });
    expect(await own(guest)).toEqual({
      ...base(guest),
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: true,
      can_create_streams: false,
      can_create_public_streams: false,
      can_create_private_streams: false,
      can_subscribe_other_users: false,
      can_invite_others_to_realm: false,
    });
  });

  it('delivery_email follows each user’s email_address_visibility, as the requester may see it', async () => {
    const { w, admin, moderator, member, guest } = await world();
    await setUser(w.ctx, member, { emailAddressVisibility: 3 });
    const seen = async (viewer: User) => {
      const body = await register(w, viewer, { fetch_event_types: '["realm_user"]' });
      return body.realm_users.find((u: { user_id: number }) => u.user_id === member.id);
    };
    for (const viewer of [w.owner, admin]) {
      expect(await seen(viewer)).toMatchObject({ delivery_email: 'mel@example.com', email: `user${member.id}@chat.example.com` });
    }
    for (const viewer of [moderator, guest]) expect((await seen(viewer)).delivery_email).toBeNull();
    expect((await seen(member)).delivery_email).toBe('mel@example.com');
    // Own keys: the real address, and the API email everyone else sees.
    expect(await register(w, member, { fetch_event_types: '["realm_user"]' })).toMatchObject({
      delivery_email: 'mel@example.com',
      email: `user${member.id}@chat.example.com`,
    });
  });

  it('client_gravatar: null avatar_url where the client can compute the gravatar itself', async () => {
    const { w, admin, member, guest } = await world();
    await setUser(w.ctx, guest, { emailAddressVisibility: 2 });
    await setUser(w.ctx, admin, { avatarSource: 'J' });
    const avatars = async (params: Record<string, unknown>) => {
      const body = await register(w, member, { fetch_event_types: '["realm_user"]', ...params });
      const byId = (id: number) => body.realm_users.find((u: { user_id: number }) => u.user_id === id).avatar_url;
      return { member: byId(member.id), guest: byId(guest.id), admin: byId(admin.id), own: body.avatar_url };
    };
    // Authenticated requests default to client_gravatar true (SHAPES.md 2.1).
    for (const params of [{}, { client_gravatar: 'true' }, { client_gravatar: true }]) {
      expect(await avatars(params)).toEqual({
        member: null,
        guest: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//),
        admin: `http://chat.example.com/avatar/${admin.id}?version=1`,
        own: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//),
      });
    }
    expect(await avatars({ client_gravatar: 'false' })).toEqual({
      member: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//),
      guest: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//),
      admin: `http://chat.example.com/avatar/${admin.id}?version=1`,
      own: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//),
    });
  });
});

describe('the realm_bot snapshot', () => {
  const botIds = async (w: World, user: User) =>
    (await register(w, user, { fetch_event_types: '["realm_bot"]' })).realm_bots.map((b: { user_id: number }) => b.user_id);

  it('administrators see every active bot; others the bots they own', async () => {
    const { w, admin, moderator, member, guest, bot, adminBot } = await world();
    expect(await botIds(w, w.owner)).toEqual([bot.id, adminBot.id]);
    expect(await botIds(w, admin)).toEqual([bot.id, adminBot.id]);
    expect(await botIds(w, member)).toEqual([bot.id]);
    expect(await botIds(w, moderator)).toEqual([]);
    expect(await botIds(w, guest)).toEqual([]);
    await setUser(w.ctx, bot, { isActive: false });
    expect(await botIds(w, w.owner)).toEqual([adminBot.id]);
    expect(await botIds(w, member)).toEqual([]);
  });

  it('a bot record is the FL 474 shape', async () => {
    const { w, member, bot } = await world();
    expect((await register(w, member, { fetch_event_types: '["realm_bot"]' })).realm_bots).toEqual([
      { user_id: bot.id, default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false, services: [] },
    ]);
  });
});

describe('bad input', () => {
  it('invalid JSON or wrong types in the JSON parameters; no queue is made', async () => {
    const { w, member } = await world();
    const bad = (params: Record<string, unknown>) => doRegister(w.ctx, w.as(member), params);
    expectBadRequest(await bad({ event_types: 'realm_user' }), 'event_types is not valid JSON');
    expectBadRequest(await bad({ event_types: '{"a": 1}' }), 'event_types is not a list');
    expectBadRequest(await bad({ fetch_event_types: '["realm", ' }), 'fetch_event_types is not valid JSON');
    expectBadRequest(await bad({ narrow: '[["is", "dm"]' }), 'narrow is not valid JSON');
    expectBadRequest(await bad({ narrow: '"dm"' }), 'narrow is not a list');
    expectBadRequest(await bad({ client_capabilities: '{"user_settings_object": true' }), 'client_capabilities is not valid JSON');
    expectBadRequest(await bad({ client_gravatar: 'maybe' }), 'client_gravatar is not valid JSON');
    expectBadRequest(await bad({ apply_markdown: '1' }), 'apply_markdown is not a boolean');
    expect(w.ctx.queues.size).toBe(0);
  });

  it('a guest may not ask for all public streams', async () => {
    const { w, guest } = await world();
    expectBadRequest(await doRegister(w.ctx, w.as(guest), { all_public_streams: true }), 'User not authorized for this query');
    expect(w.ctx.queues.size).toBe(0);
  });

  it('client_capabilities: known keys are kept, unknown ones ignored', async () => {
    const { w, member } = await world();
    const body = await register(w, member, {
      fetch_event_types: '[]',
      client_capabilities: '{"bulk_message_deletion": true, "user_settings_object": false, "no_such_capability": true}',
    });
    const queue = w.ctx.queues.get(body.queue_id, member.id)._unsafeUnwrap();
    expect([...queue.options.capabilities]).toEqual(['bulk_message_deletion']);
  });
});

describe('unauthenticated register', () => {
  it('is refused unless the realm enables public access', async () => {
    const { w } = await world();
    expectError(await doRegister(w.ctx, w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(w.ctx.queues.size).toBe(0);
  });

  it('with public access: a snapshot without a queue and without personal details', async () => {
    const { w, member } = await world();
    const realm = must(await updateRealmAsOperator(w.ctx, w.realm, { webPublicAccessEnabled: true }));
    const body = must(await doRegister(w.ctx, { realm, user: null }, { fetch_event_types: ["realm_user","realm_bot"] }));
    expect(body).toMatchObject({ queue_id: null, last_event_id: -1, realm_bots: [], cross_realm_bots: [] });
    expect(body).not.toHaveProperty('idle_queue_timeout_secs');
    expect(body).not.toHaveProperty('user_id');
    const mel = body.realm_users?.find((u) => u.user_id === member.id);
    expect(mel?.delivery_email).toBeNull();
    expect(mel).not.toHaveProperty('timezone');
    expect(mel?.date_joined).toBe(isoAt(T0).slice(0, 10));
    // Spectators get real avatar URLs (client_gravatar defaults to false) and may not ask otherwise.
    expect(mel?.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
    expectBadRequest(await doRegister(w.ctx, { realm, user: null }, { client_gravatar: true }), 'Invalid client_gravatar for a spectator');
    expect(w.ctx.queues.size).toBe(0);
  });
});

describe('a snapshot and its queue', () => {
  it('neither miss nor repeat a change that commits while registering', async () => {
    const { w, admin, member } = await world();
    const registrations: Promise<Record<string, unknown>>[] = [];
    const updates: Promise<unknown>[] = [];
    for (let n = 1; n <= 30; n++) {
      registrations.push(register(w, member, { fetch_event_types: '["realm_user"]' }));
      updates.push(doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: `Name ${n}` }));
    }
    await Promise.all(updates);
    const stored = await w.ctx.storage.read((tx) => tx.users.list(w.realm.id));
    const counts = new Set<number>();
    for (const state of await Promise.all(registrations)) {
      const polled = must(await getEvents.fromTransport(w.ctx, w.as(member), { queue_id: state.queue_id, dont_block: true }));
      counts.add(polled.events.length);
      const applied = await applyEvents(state, polled.events, {
        clientGravatar: true,
        emailPublic: (id) => stored.find((u) => u.id === id)?.emailAddressVisibility === 1,
        webPublicAccess: false,
        refetchBots: async () => [],
      });
      const fresh = await register(w, member, { fetch_event_types: '["realm_user"]' });
      expect(normalized(applied)).toEqual(normalized(fresh));
      expect(applied.full_name).toBe('Name 30');
    }
    // The registrations did interleave with the updates.
    expect(counts.size).toBeGreaterThan(1);
  });
});
