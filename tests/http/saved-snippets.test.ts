/** Saved snippets over HTTP: statuses and envelopes, including the reference's 404 for an unknown snippet. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('saved snippets over HTTP', () => {
  it('creates, lists, edits and deletes; unknown IDs are 404, bad input 400, no login 401', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const created = expectSuccess(await call(server, 'POST', '/saved_snippets', { auth: member, body: form({ title: 'Hi', content: 'Hello there' }) }));
    expect(created).toEqual({ result: 'success', msg: '', saved_snippet_id: expect.any(Number) });
    const id = created.saved_snippet_id;
    expectSuccess(await call(server, 'PATCH', `/saved_snippets/${id}`, { auth: member, body: form({ title: 'Greeting' }) }));
    expect(expectSuccess(await call(server, 'GET', '/saved_snippets', { auth: member })).saved_snippets).toEqual([
      { id, title: 'Greeting', content: 'Hello there', date_created: expect.any(Number) },
    ]);
    expectError(await call(server, 'PATCH', `/saved_snippets/${id}`, { auth: world.owner, body: form({ title: 'x' }) }), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
    expectError(await call(server, 'DELETE', '/saved_snippets/abc', { auth: member }), 400, 'BAD_REQUEST', 'saved_snippet_id is not an integer');
    expectError(await call(server, 'POST', '/saved_snippets', { auth: member, body: form({ title: 'x' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument");
    expectError(await call(server, 'GET', '/saved_snippets', {}), 401, 'UNAUTHORIZED', /Not logged in/);
    expectSuccess(await call(server, 'DELETE', `/saved_snippets/${id}`, { auth: member }));
    expectError(await call(server, 'DELETE', `/saved_snippets/${id}`, { auth: member }), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
  });
});
