/**
 * POST /users/me/presence (zulip-openapi.yaml update-presence; the reference's
 * zerver/views/presence.py and actions/presence.py): what a report stores, the legacy and
 * modern answers, incremental fetches by last_update_id, the history window and bad input.
 */
import { apiEmail, doUpdatePresence, unsavedPresenceCount } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, expectError, T0 } from './fixtures.js';
import { as, ping, presenceWorld, S0 } from './presence-helpers.js';

const legacy = (status: 'active' | 'idle', timestamp: number) => ({
  aggregated: { client: 'website', status, timestamp },
  website: { client: 'website', status, timestamp, pushable: false },
});

describe('POST /users/me/presence', () => {
  it('records an active report and answers everyone’s presence in the legacy shape by default', async () => {
    const p = await presenceWorld();
    const answer = await ping(p.w, p.member);
    expect(answer).toEqual({
      presences: { [apiEmail(p.w.realm, p.member)]: legacy('active', S0) },
      presence_last_update_id: 1,
      server_timestamp: T0 / 1000,
    });
    p.advance(10);
    const second = await ping(p.w, p.other, 'idle');
    // A user never active reads as active since they joined (the reference's date_joined default).
    expect(second.presences).toEqual({
      [apiEmail(p.w.realm, p.member)]: legacy('active', S0),
      [apiEmail(p.w.realm, p.other)]: legacy('active', S0),
    });
    expect(second.presence_last_update_id).toBe(2);
  });

  it('answers the modern shape keyed by user ID under slim_presence or last_update_id', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    p.advance(30);
    const slim = await ping(p.w, p.other, 'idle', { slim_presence: 'true' });
    expect(slim.presences).toEqual({
      [String(p.member.id)]: { active_timestamp: S0, idle_timestamp: S0 },
      [String(p.other.id)]: { active_timestamp: S0, idle_timestamp: S0 + 30 },
    });
    const modern = await ping(p.w, p.admin, 'active', { last_update_id: '-1' });
    expect(Object.keys(modern.presences).sort()).toEqual([p.admin.id, p.member.id, p.other.id].map(String).sort());
    expect(modern.presence_last_update_id).toBe(3);
  });

  it('returns only changes newer than last_update_id, and the client’s own value when nothing is newer', async () => {
    const p = await presenceWorld();
    const first = await ping(p.w, p.member, 'active', { last_update_id: '-1' });
    expect(first.presence_last_update_id).toBe(1);
    // Within the minimum update interval a second report changes nothing.
    p.advance(20);
    const same = await ping(p.w, p.member, 'active', { last_update_id: '1' });
    expect(same).toEqual({ presences: {}, presence_last_update_id: 1, server_timestamp: (T0 + 20_000) / 1000 });
    p.advance(40);
    await ping(p.w, p.other, 'idle', { ping_only: 'true' });
    const newer = await ping(p.w, p.member, 'active', { last_update_id: '1' });
    expect(newer.presences).toEqual({
      [String(p.other.id)]: { active_timestamp: S0, idle_timestamp: S0 + 60 },
      [String(p.member.id)]: { active_timestamp: S0 + 60, idle_timestamp: S0 + 60 },
    });
    expect(newer.presence_last_update_id).toBe(3);
  });

  it('moves the times as the reference does: idle moves the connected time, active both, each at most once per 55 s', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member, 'idle');
    p.advance(56);
    await ping(p.w, p.member, 'idle');
    p.advance(56);
    const active = await ping(p.w, p.member, 'active', { slim_presence: 'true' });
    expect(active.presences[p.member.id]).toEqual({ active_timestamp: S0 + 112, idle_timestamp: S0 + 112 });
    p.advance(50);
    const idle = await ping(p.w, p.member, 'idle', { slim_presence: 'true' });
    expect(idle.presences[p.member.id]).toEqual({ active_timestamp: S0 + 112, idle_timestamp: S0 + 112 });
    p.advance(100);
    // Idle for long enough: the legacy shape says idle, with the connected time.
    expect((await ping(p.w, p.member, 'idle')).presences[apiEmail(p.w.realm, p.member)]).toEqual(legacy('idle', S0 + 262));
  });

  it('answers {} for ping_only, still recording the report', async () => {
    const p = await presenceWorld();
    expect(await ping(p.w, p.member, 'active', { ping_only: 'true' })).toEqual({});
    expect(Object.keys((await ping(p.w, p.other, 'idle')).presences)).toContain(apiEmail(p.w.realm, p.member));
  });

  it('limits the first fetch to history_limit_days (14 by default); 0 returns nothing; a later fetch ignores the window', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    p.advance(3 * 86_400);
    await ping(p.w, p.other);
    const keys = async (extra: Record<string, unknown>) => Object.keys((await ping(p.w, p.admin, 'active', { slim_presence: 'true', ...extra })).presences).sort();
    expect(await keys({ history_limit_days: '2' })).toEqual([p.admin.id, p.other.id].map(String).sort());
    expect(await keys({})).toEqual([p.admin.id, p.member.id, p.other.id].map(String).sort());
    expect(await ping(p.w, p.admin, 'active', { history_limit_days: '0', last_update_id: '-1' })).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    expect(await keys({ history_limit_days: '2', last_update_id: '0' })).toEqual([p.admin.id, p.other.id].map(String).sort());
    p.advance(15 * 86_400);
    expect(await keys({})).toEqual([String(p.admin.id)]);
    // With data already (last_update_id > 0) only the sequence counts.
    expect(await keys({ history_limit_days: '1', last_update_id: '1' })).toEqual([p.admin.id, p.other.id].map(String).sort());
  });

  it('leaves out deactivated users and bots', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    await ping(p.w, p.other);
    const { doDeactivateUser } = await import('@teamchat/core/internal');
    must(await doDeactivateUser(p.w.ctx, await as(p.w, p.w.owner), { user_id: p.other.id }));
    expect(Object.keys((await ping(p.w, p.admin, 'active', { slim_presence: 'true' })).presences).sort()).toEqual([p.admin.id, p.member.id].map(String).sort());
  });

  it('refuses bots, spectators, a bad status and malformed parameters, recording nothing', async () => {
    const p = await presenceWorld();
    const call = async (user: typeof p.member | null, input: Record<string, unknown>) =>
      doUpdatePresence.fromTransport(p.w.ctx, user ? await as(p.w, user) : { realm: p.w.realm, user: null }, input);
    expectBadRequest(await call(p.bot, { status: 'active' }), 'This endpoint does not accept bot requests.');
    expectError(await call(null, { status: 'active' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expectBadRequest(await call(p.member, { status: 'away' }), 'Invalid status: away');
    expectBadRequest(await call(p.member, { status: 'x'.repeat(10_000) }), `Invalid status: ${'x'.repeat(60)}…`);
    expectBadRequest(await call(p.member, { status: 5 }), 'status is not a string');
    expectError(await call(p.member, {}), 'REQUEST_VARIABLE_MISSING', "Missing 'status' argument", 400, { var_name: 'status' });
    expectBadRequest(await call(p.member, { status: 'active', ping_only: 'yes' }), 'ping_only is not valid JSON');
    expectBadRequest(await call(p.member, { status: 'active', new_user_input: '3' }), 'new_user_input is not a boolean');
    expectBadRequest(await call(p.member, { status: 'active', last_update_id: 'abc' }), 'last_update_id is not valid JSON');
    expectBadRequest(await call(p.member, { status: 'active', last_update_id: '1.5' }), 'last_update_id is not an integer');
    expectBadRequest(await call(p.member, { status: 'active', history_limit_days: '"7"' }), 'history_limit_days is not an integer');
    expectBadRequest(await call(p.member, { status: 'active', slim_presence: 'null' }), 'slim_presence is not a boolean');
    expect(unsavedPresenceCount(p.w.ctx)).toBe(0);
    expect(p.drain()).toEqual([]);
  });

  it('accepts new_user_input (the reference’s usage statistics, which this server does not keep)', async () => {
    const p = await presenceWorld();
    expect(await ping(p.w, p.member, 'active', { new_user_input: 'true', ping_only: 'true' })).toEqual({});
  });
});
