/** PATCH /realm/user_settings_defaults over HTTP: envelope, ignored parameters, statuses. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('realm user settings defaults over HTTP', () => {
  it('changes a default, reports unsupported parameters, refuses members and bad values', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const changed = expectSuccess(await call(server, 'PATCH', '/realm/user_settings_defaults', { auth: world.owner, body: form({ enter_sends: 'true', timezone: 'UTC', bogus: '1' }) }));
    expect(changed).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['bogus', 'timezone'] });
    const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["realm_user_settings_defaults"]' }) }));
    expect(state.realm_user_settings_defaults.enter_sends).toBe(true);
    expectError(await call(server, 'PATCH', '/realm/user_settings_defaults', { auth: member, body: form({ enter_sends: 'true' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'PATCH', '/realm/user_settings_defaults', { auth: world.owner, body: form({ color_scheme: '"dark"' }) }), 400, 'BAD_REQUEST', 'color_scheme is not an integer');
    expectError(await call(server, 'PATCH', '/realm/user_settings_defaults', {}), 401, 'UNAUTHORIZED', /Not logged in/);
  });
});
