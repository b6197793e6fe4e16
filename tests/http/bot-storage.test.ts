/** /bot_storage over HTTP, as the Python bindings' update_storage and get_storage send it. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('/bot_storage over HTTP', () => {
  it('PUT a JSON object in a form, GET with keys in the query, DELETE', async () => {
    const world = await makeWorld();
    const bot = await world.addUser({ email: 'helper-bot@example.com', fullName: 'Helper Bot', bot: true, botOwnerId: world.owner.id });
    const server = await startServer(world);
    expectSuccess(await call(server, 'PUT', '/bot_storage', { auth: bot, body: form({ storage: JSON.stringify({ 'entry 1': 'value 1', 'entry 2': 'value 2' }) }) }));
    const got = expectSuccess(await call(server, 'GET', '/bot_storage', { auth: bot, query: { keys: '["entry 2"]' } }));
    expect(got).toEqual({ result: 'success', msg: '', storage: { 'entry 2': 'value 2' } });
    expectError(await call(server, 'GET', '/bot_storage', { auth: bot, query: { keys: '["nope"]' } }), 400, 'BAD_REQUEST', 'Key does not exist.');
    expectSuccess(await call(server, 'DELETE', '/bot_storage', { auth: bot, body: form({ keys: '["entry 1"]' }) }));
    expect(expectSuccess(await call(server, 'GET', '/bot_storage', { auth: bot })).storage).toEqual({ 'entry 2': 'value 2' });
    expectError(await call(server, 'PUT', '/bot_storage', { auth: bot, body: form({ storage: '{"a":' }) }), 400, 'BAD_REQUEST', /storage/);
    expectError(await call(server, 'GET', '/bot_storage'), 401, 'UNAUTHORIZED', /^Not logged in/);
  });
});
