/**
 * Acceptance audit of API.md 4.2 (GET /events), 6 (event types and realm_user person forms),
 * 9 (feature level) and POST /register's always-present keys (SHAPES.md 2.3) over HTTP.
 */
import { createUserAsOperator, doSubscribe, type User } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer, type TestServer } from '../helpers/http.js';

afterEach(closeServers);

interface Event {
  id: number;
  type: string;
  op?: string;
  person?: Record<string, unknown>;
}

async function register(server: TestServer, user: User, values: Record<string, string> = {}): Promise<string> {
  return expectSuccess(await call(server, 'POST', '/register', { auth: user, body: form({ fetch_event_types: '[]', ...values }) })).queue_id;
}

async function poll(server: TestServer, user: User, queueId: string, lastEventId = -1): Promise<Event[]> {
  const body = expectSuccess(
    await call(server, 'GET', '/events', { auth: user, query: { queue_id: queueId, last_event_id: String(lastEventId), dont_block: 'true' } }),
  );
  expect(body.queue_id).toBe(queueId);
  return body.events;
}

async function setup(): Promise<{ world: World; server: TestServer; member: User; admin: User }> {
  const world = await makeWorld({ config: { heartbeatSeconds: 1, heartbeatJitterSeconds: 0 } });
  const member = await world.addUser({ email: 'member@example.com', fullName: 'Mia Member' });
  const admin = await world.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200 });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}], principals: [world.owner.id,member.id,admin.id] }));
  return { world, server: await startServer(world), member, admin };
}

describe('POST /register keys (SHAPES.md 2.3, API.md 9)', () => {
  it('always carries the queue, last_event_id -1, the feature level 512 and the version keys under both names', async () => {
    const { server, member } = await setup();
    const body = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '[]' }) }));
    expect(body).toMatchObject({
      queue_id: expect.any(String),
      last_event_id: -1,
      idle_queue_timeout_secs: 600,
      service_feature_level: 512,
      zulip_feature_level: 512,
      event_queue_longpoll_timeout_seconds: expect.any(Number),
      max_message_length: expect.any(Number),
      max_topic_length: expect.any(Number),
      server_typing_started_wait_period_milliseconds: expect.any(Number),
      server_typing_stopped_wait_period_milliseconds: expect.any(Number),
      server_typing_started_expiry_period_milliseconds: expect.any(Number),
    });
    expect(body.service_version).toBeTypeOf('string');
    expect(body.zulip_version).toBe(body.service_version);
    expect(body.zulip_merge_base).toBe(body.service_merge_base);
    // The long-poll timeout is above the heartbeat delay (API.md 4.2, 8).
    expect(body.event_queue_longpoll_timeout_seconds).toBeGreaterThan(55);
    const settings = expectSuccess(await call(server, 'GET', '/server_settings'));
    expect(settings.service_feature_level).toBe(body.service_feature_level);
  });

  it('idle_queue_timeout: seconds, "mobile" (12 h), capped at 7 days; garbage is a 400', async () => {
    const { server, member } = await setup();
    const secs = async (value: string) =>
      expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '[]', idle_queue_timeout: value }) })).idle_queue_timeout_secs;
    expect(await secs('1200')).toBe(1200);
    expect(await secs('mobile')).toBe(43200);
    expect(await secs('99999999')).toBe(604800);
    for (const bad of ['desktop', '0', '"60"', '1.5']) {
      const response = await call(server, 'POST', '/register', { auth: member, body: form({ idle_queue_timeout: bad }) });
      expect(response.status, bad).toBe(400);
      expect(response.body.code, bad).toBe('BAD_REQUEST');
    }
  });
});

describe('4.2 GET /events', () => {
  it('last_event_id is optional; events newer than it are returned with the queue_id; IDs strictly increase', async () => {
    const { server, world, member } = await setup();
    const queue = await register(server, member, { event_types: '["realm_user"]' });
    const empty = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, dont_block: 'true' } }));
    expect(empty).toEqual({ result: 'success', msg: '', events: [], queue_id: queue });
    for (const name of ['First Name', 'Second Name', 'Third Name']) {
      expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: world.owner, body: form({ full_name: name }) }));
    }
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, dont_block: 'true' } })).events;
    expect(events.map((e: Event) => e.person?.full_name)).toEqual(['First Name', 'Second Name', 'Third Name']);
    for (let i = 1; i < events.length; i++) expect(events[i].id).toBeGreaterThan(events[i - 1].id);
    const newer = await poll(server, member, queue, events[0].id);
    expect(newer.map((e) => e.id)).toEqual(events.slice(1).map((e: Event) => e.id));
  });

  it('dont_block defaults to false: the request waits for an event, else returns a heartbeat', async () => {
    const { server, world, member } = await setup();
    const queue = await register(server, member, { event_types: '["realm_user"]' });
    const waiting = call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, last_event_id: '-1' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: world.owner, body: form({ full_name: 'Woken Up' }) }));
    const woken = expectSuccess(await waiting);
    expect(woken.events).toEqual([{ id: 0, type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Woken Up' } }]);
    expect(woken.queue_id).toBe(queue);

    const started = Date.now();
    const beat = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, last_event_id: '0' } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(beat.events).toEqual([{ type: 'heartbeat', id: expect.any(Number) }]);
    expect(beat.events[0].id).toBeGreaterThan(0);
  });

  it('without queue_id, the register parameters register a queue that honours them', async () => {
    const { server, world, member } = await setup();
    const body = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { dont_block: 'true', event_types: '["user_settings"]' } }));
    expect(body.events).toEqual([]);
    expect(body.queue_id).toBeTypeOf('string');
    expectSuccess(await call(server, 'PATCH', `/users/${member.id}`, { auth: world.owner, body: form({ full_name: 'Not Wanted' }) }));
    expectSuccess(await call(server, 'PATCH', '/settings', { auth: member, body: form({ enter_sends: 'true' }) }));
    const events = await poll(server, member, body.queue_id);
    expect(events.map((e) => e.type)).toEqual(['user_settings']);
  });

  it('garbage: bad JSON and types, unknown and other users’ queues, missing auth, wrong method', async () => {
    const { server, world, member } = await setup();
    const queue = await register(server, member);
    const cases: [Record<string, string>, string][] = [
      [{ queue_id: queue, dont_block: 'yes' }, 'dont_block is not valid JSON'],
      [{ queue_id: queue, dont_block: '1' }, 'dont_block is not a boolean'],
      [{ queue_id: queue, last_event_id: 'x' }, 'last_event_id is not valid JSON'],
      [{ queue_id: queue, last_event_id: '"3"' }, 'last_event_id is not an integer'],
      [{ queue_id: queue, last_event_id: '7', dont_block: 'true' }, 'Event 7 was not in this queue'],
      [{ dont_block: 'true', event_types: '"realm_user"' }, 'event_types is not a list'],
      [{ dont_block: 'true', client_capabilities: '[]' }, 'client_capabilities is not a dict'],
    ];
    for (const [query, msg] of cases) expectError(await call(server, 'GET', '/events', { auth: member, query }), 400, 'BAD_REQUEST', msg);
    for (const id of ['no-such-queue', '', ' ']) {
      expectError(await call(server, 'GET', '/events', { auth: member, query: { queue_id: id, dont_block: 'true' } }), 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${id}`, { queue_id: id });
    }
    expectError(await call(server, 'GET', '/events', { auth: world.owner, query: { queue_id: queue, dont_block: 'true' } }), 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue}`, { queue_id: queue });
    expectError(await call(server, 'GET', '/events', { query: { queue_id: queue, dont_block: 'true' } }), 401, 'UNAUTHORIZED', /^Not logged in/);
    const wrong = await call(server, 'POST', '/events', { auth: member });
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['DELETE', 'GET'] });
  });
});

describe('6 events', () => {
  it('every event has an integer id and a string type; the listed types arrive from their endpoints', async () => {
    const { server, world, member, admin } = await setup();
    const owner = world.owner;
    // Channel typing (typing_edit_message on a channel message) needs stream_typing_notifications.
    const queue = await register(server, member, { client_capabilities: '{"stream_typing_notifications":true}' });
    const adminQueue = await register(server, admin, { event_types: '["realm_bot"]' });
    const general = (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, 'general')))!.id;
    const when = String(Math.trunc(Date.now() / 1000) + 3600);
    const ok = async (method: string, path: string, user: User, values: Record<string, string> = {}) =>
      expectSuccess(await call(server, method, path, { auth: user, body: form(values) }));

    await ok('POST', '/users/me/alert_words', member, { alert_words: '["soup"]' });
    await ok('POST', '/drafts', member, { drafts: JSON.stringify([{ type: 'stream', to: [general], topic: 't', content: 'draft', timestamp: 1595479019 }]) });
    await ok('POST', '/navigation_views', member, { fragment: 'narrow/is/starred', is_pinned: 'true' });
    await ok('PATCH', '/realm', owner, { description: 'New **description**' });
    await ok('POST', '/realm/domains', owner, { domain: 'example.org', allow_subdomains: 'false' });
    await ok('PATCH', '/realm/user_settings_defaults', owner, { enter_sends: 'true' });
    await ok('POST', '/saved_snippets', member, { title: 'Hi', content: 'Hello there' });
    await ok('POST', '/scheduled_messages', member, { type: 'stream', to: String(general), topic: 't', content: 'later', scheduled_delivery_timestamp: when });
    await ok('POST', '/users/me/subscriptions', member, { subscriptions: '[{"name":"fresh"}]' });
    await ok('PATCH', `/streams/${general}`, owner, { description: 'About general' });
    await ok('POST', '/typing', owner, { op: 'start', to: `[${member.id}]` });
    const sent = (await ok('POST', '/messages', owner, { type: 'stream', to: 'general', topic: 't', content: 'hello' })).id as number;
    await ok('POST', `/messages/${sent}/typing`, owner, { op: 'start' });
    await ok('POST', `/messages/${sent}/reactions`, member, { emoji_name: 'tada' });
    await ok('POST', '/messages/flags', member, { messages: `[${sent}]`, op: 'add', flag: 'starred' });
    await ok('POST', '/reminders', member, { message_id: String(sent), scheduled_delivery_timestamp: when, note: 'look' });
    await ok('POST', '/user_groups/create', member, { name: 'backend', description: 'Backend', members: `[${member.id}]` });
    await ok('PATCH', '/settings', member, { default_language: 'de' });
    await ok('POST', '/channel_folders/create', owner, { name: 'Frontend', description: 'UI' });
    const upload = new FormData();
    upload.append('file', new Blob(['data'], { type: 'text/plain' }), 'notes.txt');
    expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: upload }));
    await ok('PATCH', `/users/${admin.id}`, owner, { full_name: 'Ada Renamed' });
    await ok('DELETE', `/messages/${sent}`, owner);
    const bot = must(await createUserAsOperator(world.ctx, world.realm, { email: 'bot@example.com', fullName: 'Botty', bot: true, botOwnerId: admin.id }));

    const events = await poll(server, member, queue);
    for (const event of events) {
      expect(Number.isSafeInteger(event.id)).toBe(true);
      expect(event.type).toBeTypeOf('string');
    }
    const types = new Set(events.map((e) => e.type));
    for (const type of [
      'alert_words',
      'attachment',
      'channel_folder',
      'drafts',
      'navigation_view',
      'reaction',
      'realm',
      'realm_domains',
      'realm_user',
      'realm_user_settings_defaults',
      'reminders',
      'saved_snippets',
      'scheduled_messages',
      'stream',
      'subscription',
      'typing',
      'typing_edit_message',
      'update_message_flags',
      'user_group',
      'user_settings',
      'delete_message',
    ]) {
      expect(types, type).toContain(type);
    }
    const realmEvent = events.find((e) => e.type === 'realm');
    expect(realmEvent).toMatchObject({ op: 'update_dict', property: 'default', data: { description: '<p>New <strong>description</strong></p>' } });
    const settingsEvent = events.find((e) => e.type === 'user_settings');
    expect(settingsEvent).toEqual({ id: expect.any(Number), type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' });
    expect(events.find((e) => e.type === 'reaction')).not.toHaveProperty('user');
    const botEvents = await poll(server, admin, adminQueue);
    expect(botEvents).toContainEqual(expect.objectContaining({ type: 'realm_bot', op: 'add', bot: expect.objectContaining({ user_id: bot.id }) }));
  });

  it('realm_user person forms: full name, role, time zone, delivery email, API email, custom field, (de)activation', async () => {
    const { server, world, member, admin } = await setup();
    const owner = world.owner;
    const field = expectSuccess(await call(server, 'POST', '/realm/profile_fields', { auth: owner, body: form({ name: 'Team', field_type: '1' }) })).id;
    const queue = await register(server, member, { event_types: '["realm_user"]' });
    const patch = async (user: User, values: Record<string, string>) =>
      expectSuccess(await call(server, 'PATCH', `/users/${user.id}`, { auth: owner, body: form(values) }));
    await patch(admin, { full_name: 'Ada Renamed' });
    await patch(admin, { role: '300' });
    expectSuccess(await call(server, 'PATCH', '/settings', { auth: admin, body: form({ timezone: 'Europe/Paris' }) }));
    await patch(admin, { profile_data: JSON.stringify([{ id: field, value: '**core**' }]) });
    await patch(admin, { profile_data: JSON.stringify([{ id: field, value: null }]) });
    expectSuccess(await call(server, 'PATCH', '/settings', { auth: admin, body: form({ email_address_visibility: '4' }) }));
    expectSuccess(await call(server, 'DELETE', `/users/${admin.id}`, { auth: owner }));
    expectSuccess(await call(server, 'POST', `/users/${admin.id}/reactivate`, { auth: owner }));
    const persons = (await poll(server, member, queue)).map((e) => {
      expect(e).toMatchObject({ type: 'realm_user', op: 'update' });
      return e.person;
    });
    expect(persons).toEqual([
      { user_id: admin.id, full_name: 'Ada Renamed' },
      { user_id: admin.id, role: 300 },
      { user_id: admin.id, email: 'admin@example.com', timezone: 'Europe/Paris' },
      { user_id: admin.id, custom_profile_field: { id: field, value: '**core**', rendered_value: '<p><strong>core</strong></p>' } },
      { user_id: admin.id, custom_profile_field: { id: field, value: null } },
      { user_id: admin.id, delivery_email: null },
      expect.objectContaining({ user_id: admin.id, avatar_source: 'G', avatar_url: expect.any(String), avatar_url_medium: expect.any(String), avatar_version: expect.any(Number) }),
      { user_id: admin.id, new_email: `user${admin.id}@chat.example.com` },
      { user_id: admin.id, is_active: false },
      { user_id: admin.id, is_active: true },
    ]);
  });
});
