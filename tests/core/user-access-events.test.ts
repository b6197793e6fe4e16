/**
 * Who hears of a user under can_access_all_users_group (API.md 6, SHAPES.md 4.13): realm_user
 * add (placeholder or nothing for a restricted guest), update, deactivation and reactivation
 * reach exactly the users who may access the target.
 */
import { doCreateUser, doDeactivateUser, doReactivateUser, doUpdateUser, type User } from '@teamchat/core';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { accessWorld, as, eventsOf, register, setAccessGroup } from './user-access-helpers.js';

type AccessWorld = Awaited<ReturnType<typeof accessWorld>>;

/** Registers a realm_user queue for each user, runs the action, and returns who got what. */
async function heard(a: AccessWorld, users: User[], action: () => Promise<unknown>, capabilities: Record<string, boolean> = {}) {
  const queues = await Promise.all(users.map(async (user) => ({ user, queueId: (await register(a.w, user, capabilities)).queue_id })));
  await action();
  const got = new Map<number, QueuedEvent[]>();
  for (const { user, queueId } of queues) got.set(user.id, (await eventsOf(a.w, user, queueId)).filter((e) => e.type === 'realm_user'));
  return got;
}

const persons = (events: QueuedEvent[] | undefined) => (events ?? []).map((e) => ({ op: e.op, person: e.person as Record<string, unknown> }));

describe('realm_user update audiences', () => {
  it('a full-name change reaches members and the guests who may access the user, not the others', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const everyone = [a.w.owner, a.guest, a.channelmate, a.correspondent];
    const rename = (user: User, name: string) => async () =>
      must(await doUpdateUser(a.w.ctx, await as(a.w, a.w.owner), { user_id: user.id, full_name: name }));

    const aboutStranger = await heard(a, [...everyone, a.stranger], rename(a.stranger, 'Sam S'));
    expect(aboutStranger.get(a.guest.id)).toEqual([]);
    for (const user of [a.w.owner, a.channelmate, a.correspondent, a.stranger]) {
      expect(persons(aboutStranger.get(user.id))).toEqual([{ op: 'update', person: { user_id: a.stranger.id, full_name: 'Sam S' } }]);
    }
    for (const [peer, name] of [[a.channelmate, 'Cam C'], [a.correspondent, 'Dee D']] as const) {
      const aboutPeer = await heard(a, [a.guest], rename(peer, name));
      expect(persons(aboutPeer.get(a.guest.id))).toEqual([{ op: 'update', person: { user_id: peer.id, full_name: name } }]);
    }
  });

  it('every user hears of every change while the setting is role:everyone', async () => {
    const a = await accessWorld();
    const got = await heard(a, [a.guest], async () =>
      must(await doUpdateUser(a.w.ctx, await as(a.w, a.w.owner), { user_id: a.stranger.id, full_name: 'Sam S' })));
    expect(persons(got.get(a.guest.id))).toEqual([{ op: 'update', person: { user_id: a.stranger.id, full_name: 'Sam S' } }]);
  });

  it('deactivation and reactivation reach only the users who may access the target', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const deactivate = (user: User) => async () => must(await doDeactivateUser(a.w.ctx, await as(a.w, a.w.owner), { user_id: user.id }));
    const reactivate = (user: User) => async () => must(await doReactivateUser(a.w.ctx, await as(a.w, a.w.owner), { user_id: user.id }));
    // Deactivating the stranger also deactivates their bot, which everyone may access: only the person forms about humans count.
    const isActive = (events: QueuedEvent[] | undefined) => persons(events).filter((e) => 'is_active' in e.person && e.person.user_id !== a.bot.id);

    const off = await heard(a, [a.guest, a.channelmate], deactivate(a.stranger));
    expect(isActive(off.get(a.guest.id))).toEqual([]);
    expect(isActive(off.get(a.channelmate.id))).toEqual([{ op: 'update', person: { user_id: a.stranger.id, is_active: false } }]);
    const on = await heard(a, [a.guest, a.channelmate], reactivate(a.stranger));
    expect(isActive(on.get(a.guest.id))).toEqual([]);
    expect(isActive(on.get(a.channelmate.id))).toEqual([{ op: 'update', person: { user_id: a.stranger.id, is_active: true } }]);

    expect(persons(off.get(a.guest.id))).toContainEqual({ op: 'update', person: { user_id: a.bot.id, is_active: false } });
    const peerOff = await heard(a, [a.guest], deactivate(a.correspondent));
    expect(isActive(peerOff.get(a.guest.id))).toEqual([{ op: 'update', person: { user_id: a.correspondent.id, is_active: false } }]);
  });
});

describe('realm_user add', () => {
  const create = (a: AccessWorld) => async () =>
    must(await doCreateUser(a.w.ctx, await as(a.w, a.w.owner), { email: 'newbie@example.com', password: 'newbie-password', full_name: 'Nia Newbie' }));

  it('a restricted guest gets an "Unknown user" placeholder; members get the record', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const got = await heard(a, [a.guest, a.stranger], create(a));
    const [toGuest] = persons(got.get(a.guest.id)).filter((e) => e.op === 'add');
    expect(toGuest!.person.full_name).toBe('Unknown user');
    expect(toGuest!.person.delivery_email).toBeNull();
    const [toMember] = persons(got.get(a.stranger.id)).filter((e) => e.op === 'add');
    expect(toMember!.person.full_name).toBe('Nia Newbie');
    expect(toGuest!.person.user_id).toBe(toMember!.person.user_id);
  });

  it('a restricted guest registered with user_list_incomplete hears nothing of the new user', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const got = await heard(a, [a.guest], create(a), { user_list_incomplete: true });
    expect(persons(got.get(a.guest.id)).filter((e) => e.op === 'add')).toEqual([]);
  });

  it('a guest gets the full record while the setting is role:everyone', async () => {
    const a = await accessWorld();
    const got = await heard(a, [a.guest], create(a), { user_list_incomplete: true });
    expect(persons(got.get(a.guest.id)).filter((e) => e.op === 'add')[0]!.person.full_name).toBe('Nia Newbie');
  });
});
