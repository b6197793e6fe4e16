/** Realm domains over HTTP: the domain in the path, statuses and envelopes. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('realm domains over HTTP', () => {
  it('adds, lists, changes and removes a domain; errors keep the envelope', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const added = expectSuccess(await call(server, 'POST', '/realm/domains', { auth: world.owner, body: form({ domain: 'example.com', allow_subdomains: 'false' }) }));
    expect(added).toEqual({ result: 'success', msg: '', new_domain: [expect.any(Number), 'example.com'] });
    expectSuccess(await call(server, 'PATCH', '/realm/domains/example.com', { auth: world.owner, body: form({ allow_subdomains: 'true' }) }));
    expect(expectSuccess(await call(server, 'GET', '/realm/domains', { auth: member })).domains).toEqual([{ domain: 'example.com', allow_subdomains: true }]);
    expectError(await call(server, 'POST', '/realm/domains', { auth: member, body: form({ domain: 'x.com', allow_subdomains: 'true' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectError(await call(server, 'POST', '/realm/domains', { auth: world.owner, body: form({ domain: 'nodot', allow_subdomains: 'true' }) }), 400, 'BAD_REQUEST', 'Invalid domain: Domain must have at least one dot (.)');
    expectSuccess(await call(server, 'DELETE', '/realm/domains/example.com', { auth: world.owner }));
    expectError(await call(server, 'DELETE', '/realm/domains/example.com', { auth: world.owner }), 400, 'BAD_REQUEST', 'No entry found for domain example.com.');
    expectError(await call(server, 'GET', '/realm/domains', {}), 401, 'UNAUTHORIZED', /Not logged in/);
  });
});
