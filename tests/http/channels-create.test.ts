/** POST /channels/create over HTTP: JSON in form values, the 409 of an existing name, authentication. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form } from '../helpers/http.js';
import { startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('POST /channels/create over HTTP', () => {
  it('creates a channel, then answers 409 for the same name', async () => {
    const world = await makeWorld();
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const created = expectSuccess(
      await call(server, 'POST', '/channels/create', { auth: member, body: form({ name: 'Denmark', subscribers: JSON.stringify([member.id]), invite_only: 'false' }) }),
    );
    expect(created).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const listed = expectSuccess(await call(server, 'GET', '/users/me/subscriptions', { auth: member }));
    expect(listed.subscriptions.map((s: { stream_id: number }) => s.stream_id)).toEqual([created.id]);
    expectError(
      await call(server, 'POST', '/channels/create', { auth: member, body: form({ name: 'denmark', subscribers: '[]' }) }),
      409,
      'CHANNEL_ALREADY_EXISTS',
      "Channel 'Denmark' already exists",
    );
  });

  it('needs credentials and its parameters', async () => {
    const world = await makeWorld();
    const server = await startServer(world);
    expectError(await call(server, 'POST', '/channels/create', { body: form({ name: 'x', subscribers: '[]' }) }), 401, 'UNAUTHORIZED', /^Not logged in/);
    expectError(
      await call(server, 'POST', '/channels/create', { auth: world.owner, body: form({ name: 'x', subscribers: 'nope' }) }),
      400,
      'BAD_REQUEST',
      /subscribers/,
    );
    expectError(await call(server, 'POST', '/channels/create', { auth: world.owner, body: form({ subscribers: '[]' }) }), 400, 'REQUEST_VARIABLE_MISSING', 'Missing \'name\' argument', { var_name: 'name' });
  });
});
