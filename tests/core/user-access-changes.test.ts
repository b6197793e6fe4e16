/**
 * Access that follows subscriptions under can_access_all_users_group (zerver/actions/streams.py
 * send_user_creation_events_on_adding_subscriptions, send_user_remove_events_on_removing_subscriptions):
 * a restricted guest who starts sharing a channel with a user gets their full record, one who
 * stops sharing anything gets realm_user remove, and the guest's user list then equals a fresh
 * register's.
 */
import { type ApiUser, doArchiveStream, doSubscribe, doUnsubscribe, type User } from '@teamchat/core';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { accessWorld, as, eventsOf, register, setAccessGroup } from './user-access-helpers.js';

type AccessWorld = Awaited<ReturnType<typeof accessWorld>>;
type Person = ApiUser;

/** Registers a queue for each user, runs the action, and returns each one's realm_user events. */
async function heard(a: AccessWorld, users: User[], action: () => Promise<unknown>) {
  const queues = await Promise.all(users.map(async (user) => ({ user, queueId: (await register(a.w, user)).queue_id })));
  await action();
  const got = new Map<number, QueuedEvent[]>();
  for (const { user, queueId } of queues) got.set(user.id, (await eventsOf(a.w, user, queueId)).filter((e) => e.type === 'realm_user'));
  return got;
}

const ops = (events: QueuedEvent[] | undefined) => (events ?? []).map((e) => [e.op, (e.person as Person).user_id]);
const subscribe = async (a: AccessWorld, channel: string, users: User[]) =>
  must(await doSubscribe(a.w.ctx, await as(a.w, a.w.owner), { subscriptions: [{ name: channel }], principals: users.map((u) => u.id) }));
const unsubscribe = async (a: AccessWorld, channel: string, users: User[]) =>
  must(await doUnsubscribe(a.w.ctx, await as(a.w, a.w.owner), { subscriptions: [channel], principals: users.map((u) => u.id) }));

/** The guest's realm_users entry for `user` in a fresh register. */
async function registered(a: AccessWorld, user: User): Promise<Person | undefined> {
  return (await register(a.w, a.guest)).realm_users!.find((p) => p.user_id === user.id);
}

describe('a user joins a channel a restricted guest is in', () => {
  it('gives the guest the full record of the joiner, as a fresh register then shows it; nobody else hears', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    expect((await registered(a, a.stranger))?.full_name).toBe('Unknown user');
    const got = await heard(a, [a.guest, a.stranger, a.channelmate, a.w.owner], () => subscribe(a, 'garden', [a.stranger]));
    expect(ops(got.get(a.guest.id))).toEqual([['add', a.stranger.id]]);
    expect(got.get(a.guest.id)![0]!.person).toEqual(await registered(a, a.stranger));
    for (const user of [a.stranger, a.channelmate, a.w.owner]) expect(got.get(user.id)).toEqual([]);
  });

  it('tells nothing of a user the guest could already access (a correspondent), nor of a bot', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const got = await heard(a, [a.guest], () => subscribe(a, 'garden', [a.correspondent, a.bot]));
    expect(got.get(a.guest.id)).toEqual([]);
  });

  it('tells nothing when a bot leaves either', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    await subscribe(a, 'garden', [a.bot]);
    const got = await heard(a, [a.guest], () => unsubscribe(a, 'garden', [a.bot]));
    expect(got.get(a.guest.id)).toEqual([]);
  });

  it('sends nothing while the setting is role:everyone', async () => {
    const a = await accessWorld();
    const got = await heard(a, [a.guest, a.stranger], () => subscribe(a, 'garden', [a.stranger]));
    expect(got.get(a.guest.id)).toEqual([]);
    expect(got.get(a.stranger.id)).toEqual([]);
  });
});

describe('a restricted guest joins a channel', () => {
  it('gets the records of its subscribers they could not access; the subscribers, members, hear nothing', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    await subscribe(a, 'lobby', [a.stranger, a.correspondent, a.bot]);
    const got = await heard(a, [a.guest, a.stranger], () => subscribe(a, 'lobby', [a.guest]));
    expect(ops(got.get(a.guest.id))).toEqual([['add', a.stranger.id]]);
    expect(got.get(a.guest.id)![0]!.person).toEqual(await registered(a, a.stranger));
    expect(got.get(a.stranger.id)).toEqual([]);
  });
});

describe('leaving a channel', () => {
  it('a channelmate who leaves is removed from the guest\'s list as "Unknown user", as register then shows', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const got = await heard(a, [a.guest, a.channelmate], () => unsubscribe(a, 'garden', [a.channelmate]));
    expect(got.get(a.guest.id)!.map((e) => e.person)).toEqual([{ user_id: a.channelmate.id, full_name: 'Unknown user' }]);
    expect(got.get(a.guest.id)![0]!.op).toBe('remove');
    expect(got.get(a.channelmate.id)).toEqual([]);
    expect((await registered(a, a.channelmate))?.full_name).toBe('Unknown user');
  });

  it('a guest who leaves loses the subscribers they share nothing else with, not their correspondents', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    await subscribe(a, 'garden', [a.correspondent, a.bot]);
    const got = await heard(a, [a.guest, a.channelmate, a.correspondent], () => unsubscribe(a, 'garden', [a.guest]));
    expect(ops(got.get(a.guest.id))).toEqual([['remove', a.channelmate.id]]);
    expect(got.get(a.channelmate.id)).toEqual([]);
    expect(got.get(a.correspondent.id)).toEqual([]);
  });

  it('a channelmate still shared through another channel stays', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    await subscribe(a, 'lobby', [a.guest, a.channelmate]);
    const got = await heard(a, [a.guest], () => unsubscribe(a, 'garden', [a.channelmate]));
    expect(got.get(a.guest.id)).toEqual([]);
  });

  it('archiving the shared channel keeps its subscriptions, so access and the user list do not change', async () => {
    const a = await accessWorld();
    await setAccessGroup(a.w, 'role:members');
    const garden = await a.w.ctx.storage.read((tx) => tx.streams.byName(a.w.realm.id, 'garden'));
    const got = await heard(a, [a.guest], async () => must(await doArchiveStream(a.w.ctx, await as(a.w, a.w.owner), { stream_id: garden!.id })));
    expect(got.get(a.guest.id)).toEqual([]);
    expect((await registered(a, a.channelmate))?.full_name).toBe('Cam Channelmate');
  });
});
