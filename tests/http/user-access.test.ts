/** can_access_all_users_group over HTTP: set by PATCH /realm, enforced by GET /users and GET /users/{id}. */
import { systemGroupId } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

describe('can_access_all_users_group', () => {
  it('hides a user a restricted guest shares nothing with, and lets members see everyone', async () => {
    const server = await startServer();
    const { owner } = server.world;
    const guest = await server.world.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
    const stranger = await server.world.addUser({ email: 'sam@example.com', fullName: 'Sam Stranger' });
    const ids = async (user: typeof owner) =>
      expectSuccess(await call(server, 'GET', '/users', { auth: user })).members.map((m: { user_id: number }) => m.user_id);

    expect(await ids(guest)).toContain(stranger.id);
    const setting = JSON.stringify({ new: systemGroupId('role:members') });
    expectSuccess(await call(server, 'PATCH', '/realm', { auth: owner, body: form({ can_access_all_users_group: setting }) }));

    expect(await ids(guest)).not.toContain(stranger.id);
    expect(await ids(guest)).toContain(guest.id);
    expect(await ids(stranger)).toContain(guest.id);
    expectError(await call(server, 'GET', `/users/${stranger.id}`, { auth: guest }), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectSuccess(await call(server, 'GET', `/users/${guest.id}`, { auth: stranger }));
  });
});
