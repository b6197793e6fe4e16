/**
 * Paths the reference keeps for older clients and that the Python bindings still call:
 * PATCH /settings/display and /settings/notifications (aliases of PATCH /settings) and
 * GET /realm/filters (linkifiers as [pattern, url_template, id] triples).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('legacy paths', () => {
  it('PATCH /settings/display and /settings/notifications change settings as PATCH /settings does', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    expectSuccess(await call(server, 'PATCH', '/settings/display', { auth: member, body: form({ twenty_four_hour_time: 'true' }) }));
    expectSuccess(await call(server, 'PATCH', '/settings/notifications', { auth: member, body: form({ enable_sounds: 'false' }) }));
    const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["user_settings"]' }) }));
    expect(state.user_settings).toMatchObject({ twenty_four_hour_time: true, enable_sounds: false });
    expectError(await call(server, 'PATCH', '/settings/display', { auth: member, body: form({ twenty_four_hour_time: 'maybe' }) }), 400, 'BAD_REQUEST', /twenty_four_hour_time/);
    expectError(await call(server, 'PATCH', '/settings/notifications', { body: form({ enable_sounds: 'false' }) }), 401, 'UNAUTHORIZED', /^Not logged in/);
  });

  it('GET /realm/filters lists linkifiers as triples in processing order', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const first = expectSuccess(
      await call(server, 'POST', '/realm/filters', { auth: world.owner, body: form({ pattern: '#(?P<id>[0-9]+)', url_template: 'https://bugs.example.com/{id}' }) }),
    );
    const second = expectSuccess(
      await call(server, 'POST', '/realm/filters', { auth: world.owner, body: form({ pattern: 'PR(?P<id>[0-9]+)', url_template: 'https://git.example.com/pr/{id}' }) }),
    );
    const listed = expectSuccess(await call(server, 'GET', '/realm/filters', { auth: member }));
    expect(listed).toEqual({
      result: 'success',
      msg: '',
      filters: [
        ['#(?P<id>[0-9]+)', 'https://bugs.example.com/{id}', first.id],
        ['PR(?P<id>[0-9]+)', 'https://git.example.com/pr/{id}', second.id],
      ],
    });
    expectError(await call(server, 'GET', '/realm/filters'), 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});
