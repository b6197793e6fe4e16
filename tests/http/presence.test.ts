/** Presence over HTTP: the three routes beside /users/{user_id}, envelopes, and the server's flush lifecycle. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unsavedPresenceCount } from '@teamchat/core/internal';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);
const dir = mkdtempSync(join(tmpdir(), 'teamchat-http-presence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('presence over HTTP', () => {
  it('reports, fetches by the realm, by user ID and by email, without disturbing /users/{user_id}', async () => {
    const world = await makeWorld({ config: { timers: false } });
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    const reported = expectSuccess(await call(server, 'POST', '/users/me/presence', { auth: member, body: form({ status: 'active', new_user_input: 'true' }) }));
    expect(reported).toEqual({ result: 'success', msg: '', presences: { 'mel@example.com': expect.objectContaining({ aggregated: expect.objectContaining({ status: 'active' }) }) }, presence_last_update_id: 1, server_timestamp: expect.any(Number) });
    const modern = expectSuccess(await call(server, 'POST', '/users/me/presence', { auth: world.owner, body: form({ status: 'idle', last_update_id: '-1' }) }));
    expect(Object.keys(modern.presences).sort()).toEqual([String(world.owner.id), String(member.id)].sort());
    expect(expectSuccess(await call(server, 'POST', '/users/me/presence', { auth: member, body: form({ status: 'idle', ping_only: 'true' }) }))).toEqual({ result: 'success', msg: '' });

    const realm = expectSuccess(await call(server, 'GET', '/realm/presence', { auth: member }));
    expect(Object.keys(realm.presences).sort()).toEqual(['mel@example.com', 'owner@example.com']);
    expect(realm).not.toHaveProperty('presence_last_update_id');
    const byId = expectSuccess(await call(server, 'GET', `/users/${member.id}/presence`, { auth: world.owner }));
    const byEmail = expectSuccess(await call(server, 'GET', `/users/${encodeURIComponent('mel@example.com')}/presence`, { auth: world.owner }));
    expect(byId.presence).toEqual({ aggregated: { status: 'active', timestamp: expect.any(Number) }, website: { status: 'active', timestamp: expect.any(Number) } });
    expect(byEmail).toEqual(byId);
    expect(expectSuccess(await call(server, 'GET', `/users/${member.id}/presence`, { auth: world.owner, query: { slim_presence: 'true' } })).presence).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(expectSuccess(await call(server, 'GET', `/users/${member.id}`, { auth: world.owner })).user.user_id).toBe(member.id);
  });

  it('answers every error in the envelope with its status', async () => {
    const world = await makeWorld({ config: { timers: false } });
    const bot = await world.addUser({ email: 'bot@example.com', fullName: 'A Bot', bot: true, botOwnerId: world.owner.id });
    const server = await startServer(world);
    const post = (body: Record<string, string>, auth: typeof world.owner | undefined = world.owner) => call(server, 'POST', '/users/me/presence', { auth, body: form(body) });
    expectError(await post({ status: 'busy' }), 400, 'BAD_REQUEST', 'Invalid status: busy');
    expectError(await post({}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'status' argument");
    expectError(await post({ status: 'active', ping_only: 'sure' }), 400, 'BAD_REQUEST', 'ping_only is not valid JSON');
    expectError(await post({ status: 'active', last_update_id: '[1]' }), 400, 'BAD_REQUEST', 'last_update_id is not an integer');
    expectError(await post({ status: 'active' }, bot), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    expectError(await call(server, 'POST', '/users/me/presence', { body: form({ status: 'active' }) }), 401, 'UNAUTHORIZED', /Not logged in/);
    // "me" is the literal route, as in the reference's URL table: reading one's own presence goes by ID.
    const wrongMethod = await call(server, 'GET', '/users/me/presence', { auth: world.owner });
    expect([wrongMethod.status, wrongMethod.body]).toEqual([405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] }]);
    expectError(await call(server, 'GET', '/users/4242/presence', { auth: world.owner }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'GET', `/users/${encodeURIComponent('nobody@example.com')}/presence`, { auth: world.owner }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await call(server, 'GET', `/users/${bot.id}/presence`, { auth: world.owner }), 400, 'BAD_REQUEST', 'Presence is not supported for bot users.');
    expectError(await call(server, 'GET', `/users/${world.owner.id}/presence`, { auth: world.owner }), 400, 'BAD_REQUEST', `No presence data for ${world.owner.id}`);
    expectError(await call(server, 'GET', '/realm/presence', {}), 401, 'UNAUTHORIZED', /Not logged in/);
    expectError(await call(server, 'PATCH', '/realm', { auth: world.owner, body: form({ presence_disabled: 'maybe' }) }), 400, 'BAD_REQUEST', 'presence_disabled is not valid JSON');
  });

  it('flushes on its timer while serving and once more at close; a server over the same file answers what was reported', async () => {
    const file = join(dir, 'presence.sqlite');
    const world = await makeWorld({ databaseFile: file, config: { presenceFlushIntervalSeconds: 0.02 } });
    const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
    const server = await startServer(world);
    expectSuccess(await call(server, 'POST', '/users/me/presence', { auth: member, body: form({ status: 'active', ping_only: 'true' }) }));
    await expect.poll(() => unsavedPresenceCount(world.ctx), { timeout: 2000, interval: 10 }).toBe(0);
    expectSuccess(await call(server, 'POST', '/users/me/presence', { auth: world.owner, body: form({ status: 'idle', ping_only: 'true' }) }));
    await server.close();

    const { createSqliteContext } = await import('@teamchat/core/sqlite');
    const again = startServer({ ...world, ctx: createSqliteContext({ databaseFile: file, config: { timers: false } }) });
    const answer = expectSuccess(await call(await again, 'GET', '/realm/presence', { auth: member }));
    expect(Object.keys(answer.presences).sort()).toEqual(['mel@example.com', 'owner@example.com']);
  });
});
