/**
 * Over HTTP: the register keys and realm settings added for the official clients, and the
 * emoji data file `server_emoji_data_url` points at (fetched without credentials, cacheable
 * forever because its name changes with its content).
 */
import { afterEach, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld({ config: { timers: false } });
  const admin = await world.addUser({ email: 'admin@example.com', role: 200 });
  const member = await world.addUser({ email: 'member@example.com' });
  const server = await startServer(world);
  return { world, admin, member, server };
}

it('serves the emoji data file register points at, to anyone, cacheable forever', async () => {
  const { server, member } = await setup();
  const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["realm"]' }) }));
  const path = new URL(state.server_emoji_data_url).pathname;
  expect(path).toMatch(/^\/static\/generated\/emoji\/emoji_api\.[0-9a-f]{16}\.json$/);

  const response = await fetch(server.url + path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const data = (await response.json()) as { code_to_names: Record<string, string[]> };
  expect(data.code_to_names['1f600']).toEqual(['grinning', 'happy']);

  const head = await fetch(server.url + path, { method: 'HEAD' });
  expect([head.status, head.headers.get('content-length')]).toEqual([200, response.headers.get('content-length')]);
  const posted = await fetch(server.url + path, { method: 'POST' });
  expect(posted.status).toBe(405);
  for (const stale of ['emoji_api.0000000000000000.json', 'emoji_api.json', '..%2F..%2Fpackage.json']) {
    const missing = await fetch(`${server.url}/static/generated/emoji/${stale}`);
    expect([missing.status, ((await missing.json()) as { code: string }).code], stale).toEqual([404, 'NOT_FOUND']);
  }
});

it('registers the reference keys and changes the new realm settings with PATCH /realm', async () => {
  const { server, admin, member } = await setup();
  const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["realm", "realm_user_groups", "recent_private_conversations"]' }) }));
  expect(state).toMatchObject({ realm_enable_read_receipts: true, realm_presence_disabled: false, realm_wildcard_mention_policy: 5, recent_private_conversations: [] });
  expect(state.realm_user_groups.length).toBeGreaterThan(0);
  expect(state.realm_default_external_accounts.github.url_pattern).toBe('https://github.com/%(username)s');

  const patch = (user: typeof admin, body: Record<string, string>) => call(server, 'PATCH', '/realm', { auth: user, body: form(body) });
  expect(expectSuccess(await patch(admin, { enable_read_receipts: 'false', presence_disabled: 'true' }))).toEqual({
    result: 'success',
    msg: '',
    enable_read_receipts: false,
    presence_disabled: true,
  });
  const after = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["realm"]' }) }));
  expect(after).toMatchObject({ realm_enable_read_receipts: false, realm_presence_disabled: true });

  expectError(await patch(member, { enable_read_receipts: 'true' }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  expectError(await patch(admin, { presence_disabled: 'sometimes' }), 400, 'BAD_REQUEST', 'presence_disabled is not valid JSON');
  expectError(await patch(admin, { enable_guest_user_indicator: '3' }), 400, 'BAD_REQUEST', 'enable_guest_user_indicator is not a boolean');
});
