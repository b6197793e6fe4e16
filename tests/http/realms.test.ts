/** Realm selection by Host header, and isolation between two realms on one server. */
import { createRealm, createUserAsOperator, type Realm, type User } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { callHost, closeServers, expectError, expectSuccess, type TestServer, startServer } from '../helpers/http.js';

afterEach(closeServers);

const A = 'chat.example.com';
const B = 'other.example.com';

interface TwoRealms {
  server: TestServer;
  ownerA: User;
  ownerB: User;
  realmB: Realm;
}

async function twoRealms(): Promise<TwoRealms> {
  const world = await makeWorld();
  const { realm: realmB, owner: ownerB } = must(
    await createRealm(world.ctx, {
      name: 'Other Org',
      url: 'http://other.example.com',
      subdomain: 'other',
      owner: { email: 'boss@other.example.com', fullName: 'Bea Boss', password: 'boss-password' },
    }),
  );
  return { server: await startServer(world), ownerA: world.owner, ownerB, realmB };
}

describe('realm selection by Host', () => {
  it('serves each realm its own server settings', async () => {
    const { server } = await twoRealms();
    const a = expectSuccess(await callHost(server, A, 'GET', '/server_settings'));
    expect(a).toMatchObject({ realm_url: 'http://chat.example.com', realm_name: 'Test Org' });
    for (const host of [B, 'OTHER.Example.COM', 'other.example.com:9991']) {
      const b = expectSuccess(await callHost(server, host, 'GET', '/server_settings'));
      expect(b, host).toMatchObject({ realm_url: 'http://other.example.com', realm_uri: 'http://other.example.com', realm_name: 'Other Org' });
    }
  });

  it('a Host naming no realm is served by the default (root) realm', async () => {
    const { server } = await twoRealms();
    const body = expectSuccess(await callHost(server, 'unknown.test', 'GET', '/server_settings'));
    expect(body.realm_url).toBe('http://chat.example.com');
  });

  it('authenticates each realm’s users on their own realm only', async () => {
    const { server, ownerA, ownerB } = await twoRealms();
    expect(expectSuccess(await callHost(server, B, 'GET', '/users/me', { auth: ownerB })).user_id).toBe(ownerB.id);
    expect(expectSuccess(await callHost(server, A, 'GET', '/users/me', { auth: ownerA })).user_id).toBe(ownerA.id);
    for (const [host, user] of [
      [B, ownerA],
      [A, ownerB],
    ] as const) {
      const response = await callHost(server, host, 'GET', '/users/me', { auth: user });
      expectError(response, 401, 'UNAUTHORIZED', /./);
    }
  });

  it('logs in per realm with POST /fetch_api_key', async () => {
    const { server, ownerB } = await twoRealms();
    const b = expectSuccess(await callHost(server, B, 'POST', '/fetch_api_key', { form: { username: 'boss@other.example.com', password: 'boss-password' } }));
    expect(b).toMatchObject({ api_key: ownerB.apiKey, user_id: ownerB.id });
    expectError(
      await callHost(server, A, 'POST', '/fetch_api_key', { form: { username: 'boss@other.example.com', password: 'boss-password' } }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    expectError(
      await callHost(server, B, 'POST', '/fetch_api_key', { form: { username: 'owner@example.com', password: 'owner-password' } }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
  });

  it('keeps the same email in two realms apart', async () => {
    const { server, ownerA, ownerB, realmB } = await twoRealms();
    const world = server.world;
    const inA = await world.addUser({ email: 'shared@example.com', password: 'password-a' });
    const inB = must(await createUserAsOperator(world.ctx, realmB, { email: 'shared@example.com', fullName: 'Shared B', password: 'password-b' }));
    expect(inA.id).not.toBe(inB.id);
    expect(expectSuccess(await callHost(server, A, 'GET', '/users/me', { auth: inA })).user_id).toBe(inA.id);
    expect(expectSuccess(await callHost(server, B, 'GET', '/users/me', { auth: inB })).user_id).toBe(inB.id);
    expectError(await callHost(server, B, 'GET', '/users/me', { auth: inA }), 401, 'UNAUTHORIZED', /./);
    const login = await callHost(server, B, 'POST', '/fetch_api_key', { form: { username: 'shared@example.com', password: 'password-b' } });
    expect(expectSuccess(login).user_id).toBe(inB.id);
    // Creating a user whose email exists only in the other realm works.
    const created = await callHost(server, B, 'POST', '/users', {
      auth: ownerB,
      form: { email: 'owner@example.com', password: 'another-password', full_name: 'Second Owner' },
    });
    expectSuccess(created);
    expect(ownerA.id).not.toBe(created.body.user_id);
  });

  it('treats another realm’s user IDs as unknown', async () => {
    const { server, ownerA, ownerB } = await twoRealms();
    const members = expectSuccess(await callHost(server, A, 'GET', '/users', { auth: ownerA })).members;
    expect(members.map((m: { user_id: number }) => m.user_id)).toEqual([ownerA.id]);
    const id = ownerB.id;
    expectError(await callHost(server, A, 'GET', `/users/${id}`, { auth: ownerA }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await callHost(server, A, 'GET', '/users/boss@other.example.com', { auth: ownerA }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await callHost(server, A, 'PATCH', `/users/${id}`, { auth: ownerA, form: { full_name: 'Hijacked' } }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await callHost(server, A, 'DELETE', `/users/${id}`, { auth: ownerA }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await callHost(server, A, 'POST', `/users/${id}/reactivate`, { auth: ownerA }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await callHost(server, A, 'GET', `/users?user_ids=[${id}]`, { auth: ownerA }), 400, 'BAD_REQUEST', `Invalid user ID: ${id}`);
    const b = expectSuccess(await callHost(server, B, 'GET', `/users/${id}`, { auth: ownerB }));
    expect(b.user).toMatchObject({ full_name: 'Bea Boss', is_active: true });
  });
});
