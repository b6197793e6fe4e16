/**
 * `presence` events (zulip-openapi.yaml get-events presence; the reference's
 * send_presence_changed): sent when a user comes online, in the legacy or the
 * simplified_presence_events shape, to the users who may access them; never for routine
 * reports, in a realm that disabled presence, or past the realm-size limit.
 */
import { apiEmail, doRegister, doUpdateSettings, getEvents, type User } from '@teamchat/core/internal';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { T0 } from './fixtures.js';
import { as, ping, presenceWorld, restrictGuests, S0, setRealm, sorted } from './presence-helpers.js';

async function presenceQueue(p: Awaited<ReturnType<typeof presenceWorld>>, user: User, simplified: boolean): Promise<string> {
  const params = { event_types: '["presence"]', fetch_event_types: '[]', client_capabilities: JSON.stringify({ simplified_presence_events: simplified }) };
  return (must(await doRegister.fromTransport(p.w.ctx, await as(p.w, user), params)) as { queue_id: string }).queue_id;
}

async function queued(p: Awaited<ReturnType<typeof presenceWorld>>, user: User, queueId: string): Promise<Omit<QueuedEvent, 'id'>[]> {
  const polled = must(await getEvents(p.w.ctx, await as(p.w, user), { queue_id: queueId, dont_block: true }));
  return polled.events.map(({ id: _id, ...event }) => event);
}

const everyone = (p: Awaited<ReturnType<typeof presenceWorld>>) => sorted(p.w.owner, p.admin, p.member, p.other, p.guest, p.bot);

describe('presence events', () => {
  it('announce a user’s first report to every active user, in the shape each queue asked for', async () => {
    const p = await presenceWorld();
    const legacyQueue = await presenceQueue(p, p.other, false);
    const modernQueue = await presenceQueue(p, p.admin, true);
    await ping(p.w, p.member, 'active', { ping_only: 'true' });
    const published = p.drain();
    expect(published.map((e) => [...e.userIds].sort((a, b) => a - b))).toEqual([everyone(p)]);
    expect(await queued(p, p.other, legacyQueue)).toEqual([
      {
        type: 'presence',
        user_id: p.member.id,
        email: apiEmail(p.w.realm, p.member),
        server_timestamp: T0 / 1000,
        presence: { website: { client: 'website', status: 'active', timestamp: S0, pushable: false } },
      },
    ]);
    expect(await queued(p, p.admin, modernQueue)).toEqual([
      { type: 'presence', presences: { [String(p.member.id)]: { active_timestamp: S0, idle_timestamp: S0 } } },
    ]);
  });

  it('stay quiet for routine reports and idle ones; a user back after more than 70 s of inactivity is announced again', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member, 'idle');
    expect(p.drain()).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      p.advance(60);
      await ping(p.w, p.member, 'idle');
    }
    expect(p.drain()).toEqual([]);
    // Never active before: the first active report is a return online.
    await ping(p.w, p.member, 'active');
    expect(p.drain()).toHaveLength(1);
    p.advance(60);
    await ping(p.w, p.member, 'active');
    p.advance(70);
    await ping(p.w, p.member, 'active');
    expect(p.drain()).toEqual([]);
    p.advance(71);
    await ping(p.w, p.member, 'active');
    const [event] = p.drain();
    expect(event?.event).toMatchObject({ user_id: p.member.id, presences: { [p.member.id]: { active_timestamp: S0 + 381, idle_timestamp: S0 + 381 } } });
  });

  it('are not sent in a realm that disabled presence, where presence reads as empty', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    await setRealm(p.w, { presence_disabled: 'true' });
    p.drain();
    await ping(p.w, p.other);
    expect(p.drain()).toEqual([]);
    expect(await ping(p.w, p.admin, 'active', { last_update_id: '5' })).toEqual({ presences: {}, presence_last_update_id: -1, server_timestamp: T0 / 1000 });
    // Turned back on, the reports made meanwhile are there.
    await setRealm(p.w, { presence_disabled: 'false' });
    expect(Object.keys((await ping(p.w, p.admin, 'active', { slim_presence: 'true' })).presences).sort()).toEqual(sorted(p.admin, p.member, p.other).map(String));
  });

  it('skip realms above presenceEventUserLimit', async () => {
    const p = await presenceWorld({ config: { presenceEventUserLimit: 5 } });
    await ping(p.w, p.member);
    expect(p.drain()).toEqual([]);
  });

  it('reach a guest restricted by can_access_all_users_group only about users they may access, who alone they see', async () => {
    const p = await presenceWorld();
    await restrictGuests(p.w);
    p.drain();
    await ping(p.w, p.member);
    expect(p.drain().map((e) => [...e.userIds].sort((a, b) => a - b))).toEqual([sorted(p.w.owner, p.admin, p.member, p.other, p.bot)]);
    await ping(p.w, p.guest);
    expect(p.drain().map((e) => [...e.userIds].sort((a, b) => a - b))).toEqual([everyone(p)]);
    // A direct message makes the member accessible to the guest.
    const { doSendMessage } = await import('@teamchat/core/internal');
    must(await doSendMessage(p.w.ctx, await as(p.w, p.other), { type: 'private', to: JSON.stringify([p.guest.id]), content: 'hi' }));
    await ping(p.w, p.other);
    expect(p.drain().map((e) => [...e.userIds].sort((a, b) => a - b))).toEqual([everyone(p)]);
    const seen = await ping(p.w, p.guest, 'active', { slim_presence: 'true' });
    expect(Object.keys(seen.presences).sort()).toEqual(sorted(p.guest, p.other).map(String));
    expect(seen.presence_last_update_id).toBe(3);
    const all = await ping(p.w, p.admin, 'active', { slim_presence: 'true' });
    expect(Object.keys(all.presences).sort()).toEqual(sorted(p.admin, p.member, p.guest, p.other).map(String));
  });
});

describe('presence_enabled (invisible mode)', () => {
  it('turned off: reports are ignored and everyone is told at once that the user went offline a while ago', async () => {
    const p = await presenceWorld({ config: { presenceEventUserLimit: 2 } });
    await ping(p.w, p.member);
    p.advance(30);
    must(await doUpdateSettings(p.w.ctx, await as(p.w, p.member), { presence_enabled: false }));
    // Forced past the size limit, as the reference does for this change.
    const [event] = p.drain();
    expect([...event!.userIds].sort((a, b) => a - b)).toEqual(everyone(p));
    const offlineSince = S0 + 30 - 140 - 120;
    expect(event!.event).toMatchObject({ presence: { website: { status: 'active', timestamp: S0 } }, presences: { [p.member.id]: { active_timestamp: S0, idle_timestamp: offlineSince } } });
    p.advance(300);
    await ping(p.w, p.member);
    expect(p.drain()).toEqual([]);
    const seen = await ping(p.w, p.other, 'active', { slim_presence: 'true' });
    expect(seen.presences[p.member.id]).toEqual({ active_timestamp: S0, idle_timestamp: offlineSince });
    // Turned on again: online now.
    must(await doUpdateSettings(p.w.ctx, await as(p.w, p.member), { presence_enabled: true }));
    const now = S0 + 330;
    expect(p.drain()[0]?.event).toMatchObject({ presences: { [p.member.id]: { active_timestamp: now, idle_timestamp: now } } });
  });

  it('a request that changes nothing, or fails, leaves presence alone', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    p.drain();
    must(await doUpdateSettings(p.w.ctx, await as(p.w, p.member), { presence_enabled: true }));
    const failed = await doUpdateSettings(p.w.ctx, await as(p.w, p.member), { presence_enabled: false, default_language: 'xx' });
    expect(failed.isErr()).toBe(true);
    expect(p.drain()).toEqual([]);
  });
});

describe('presence events applied to a register snapshot', () => {
  it('bring the snapshot to what a fresh register gives (the reference’s verify_action idea)', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    const params = { fetch_event_types: '["presence"]', event_types: '["presence"]', slim_presence: 'true', client_capabilities: '{"simplified_presence_events":true}' };
    const before = must(await doRegister.fromTransport(p.w.ctx, await as(p.w, p.admin), params)) as { queue_id: string; presences: Record<string, unknown> };
    p.advance(200);
    await ping(p.w, p.other);
    await ping(p.w, p.member);
    const events = await queued(p, p.admin, before.queue_id);
    expect(events).toHaveLength(2);
    const applied = { ...before.presences };
    for (const event of events) Object.assign(applied, event.presences as object);
    const fresh = must(await doRegister.fromTransport(p.w.ctx, await as(p.w, p.admin), params));
    expect(applied).toEqual(fresh.presences);
  });
});
