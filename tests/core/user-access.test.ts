/**
 * can_access_all_users_group (API.md 4.4, 6; SHAPES.md 2.6, 4.13): what a restricted guest may
 * see of other users in GET /users, GET /users/{id|email} and register, and which users hear of
 * a user's changes.
 */
import { getUser, getUsers } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest } from './fixtures.js';
import { accessWorld, as, ids, register, setAccessGroup } from './user-access-helpers.js';

const members = async (w: Awaited<ReturnType<typeof accessWorld>>['w'], viewer: Parameters<typeof as>[1]) =>
  (must(await getUsers(w.ctx, await as(w, viewer), {}))).members;

describe('GET /users', () => {
  it('lists every user for a guest while the setting is role:everyone', async () => {
    const a = await accessWorld();
    expect(ids(await members(a.w, a.guest))).toEqual(ids(await members(a.w, a.w.owner)));
    expect(ids(await members(a.w, a.guest))).toContain(a.stranger.id);
  });

  it('lists only accessible users for a restricted guest: self, channelmates, correspondents, bots', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const seen = ids(await members(a.w, a.guest));
    expect(seen).toEqual([a.guest.id, a.channelmate.id, a.correspondent.id, a.bot.id].sort((x, y) => x - y));
    // No placeholders here: the reference builds this list as if the client had user_list_incomplete.
    expect((await members(a.w, a.guest)).some((u) => u.full_name === 'Unknown user')).toBe(false);
  });

  it('does not restrict members, who are always in role:members', async () => {
    const a = await accessWorld();
    const before = ids(await members(a.w, a.stranger));
    await setAccessGroup(a.w, 'role:members');
    expect(ids(await members(a.w, a.stranger))).toEqual(before);
    expect(before).toContain(a.guest.id);
  });

  it('drops a channelmate who leaves the shared channel (access follows subscriptions)', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const { doUnsubscribe } = await import('@teamchat/core');
    must(await doUnsubscribe(a.w.ctx, await as(a.w, a.channelmate), { subscriptions: ["garden"] }));
    expect(ids(await members(a.w, a.guest))).not.toContain(a.channelmate.id);
  });
});

describe('GET /users/{user_id} and /users/{email}', () => {
  it('answers "Insufficient permission" for a user the guest may not access, as the reference', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const caller = await as(a.w, a.guest);
    expectBadRequest(await getUser(a.w.ctx, caller, { user_id: String(a.stranger.id) }), 'Insufficient permission');
    const email = (await members(a.w, a.w.owner)).find((u) => u.user_id === a.stranger.id)!.email;
    expectBadRequest(await getUser(a.w.ctx, caller, { user_id: email }), 'Insufficient permission');
    for (const user of [a.guest, a.channelmate, a.correspondent, a.bot]) {
      const got = must(await getUser(a.w.ctx, caller, { user_id: String(user.id) }));
      expect(got.user.user_id).toBe(user.id);
    }
    // Unknown IDs keep their own error.
    expectBadRequest(await getUser(a.w.ctx, caller, { user_id: '9999' }), 'No such user');
  });

  it('lets the guest read anyone once the setting is back to role:everyone', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    await setAccessGroup(a.w, 'role:everyone');
    const got = must(await getUser(a.w.ctx, await as(a.w, a.guest), { user_id: String(a.stranger.id) }));
    expect(got.user.full_name).toBe('Sam Stranger');
  });
});

describe('register realm_users', () => {
  it('gives a restricted guest "Unknown user" placeholders with the real IDs', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const state = await register(a.w, a.guest);
    const users = state.realm_users!;
    const placeholder = users.find((u) => u.user_id === a.stranger.id)!;
    expect(placeholder).toEqual({
      user_id: a.stranger.id,
      email: `user${a.stranger.id}@chat.example.com`,
      delivery_email: null,
      full_name: 'Unknown user',
      avatar_url: 'http://chat.example.com/static/images/unknown-user-avatar.png',
      avatar_version: 1,
      date_joined: '1970-01-01T00:00:00+00:00',
      timezone: '',
      role: 400,
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      is_imported_stub: false,
      profile_data: {},
    });
    expect(users.find((u) => u.user_id === a.w.owner.id)!.full_name).toBe('Unknown user');
    for (const user of [a.guest, a.channelmate, a.correspondent, a.bot]) {
      expect(users.find((u) => u.user_id === user.id)!.full_name).toBe(user.fullName);
    }
    // Every user of the realm is there once.
    expect(ids(users)).toEqual(ids(await members(a.w, a.w.owner)));
  });

  it('leaves inaccessible users out under user_list_incomplete', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const state = await register(a.w, a.guest, { user_list_incomplete: true });
    expect(ids(state.realm_users)).toEqual([a.guest.id, a.channelmate.id, a.correspondent.id, a.bot.id].sort((x, y) => x - y));
  });

  it('changes nothing for the guest while the setting is role:everyone, nor for members', async () => {
    const a = await accessWorld();
    const open = await register(a.w, a.guest);
    expect(open.realm_users!.some((u) => u.full_name === 'Unknown user')).toBe(false);
    await setAccessGroup(a.w, 'role:members');
    const member = await register(a.w, a.stranger);
    expect(member.realm_users).toEqual((await register(a.w, a.stranger)).realm_users);
    expect(member.realm_users!.some((u) => u.full_name === 'Unknown user')).toBe(false);
  });
});
