/** Code playgrounds over HTTP: form bodies, the path ID, envelopes and statuses. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('/realm/playgrounds over HTTP', () => {
  it('adds, lists through register and removes', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const body = form({ name: 'Rust playground', pygments_language: 'Rust', url_template: 'https://play.rust-lang.org/?code={code}' });
    const added = expectSuccess(await call(server, 'POST', '/realm/playgrounds', { auth: world.owner, body }));
    expect(added).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const state = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["realm_playgrounds"]' }) }));
    expect(state.realm_playgrounds).toEqual([{ id: added.id, name: 'Rust playground', pygments_language: 'Rust', url_template: 'https://play.rust-lang.org/?code={code}' }]);
    expectError(await call(server, 'POST', '/realm/playgrounds', { auth: member, body }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'DELETE', '/realm/playgrounds/abc', { auth: world.owner }), 400, 'BAD_REQUEST', /playground_id/);
    expectSuccess(await call(server, 'DELETE', `/realm/playgrounds/${added.id}`, { auth: world.owner }));
    expectError(await call(server, 'DELETE', `/realm/playgrounds/${added.id}`, { auth: world.owner }), 400, 'BAD_REQUEST', 'Invalid playground');
    expectError(await call(server, 'POST', '/realm/playgrounds', { body }), 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});
