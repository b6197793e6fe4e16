/**
 * GET /realm/presence and GET /users/{user_id_or_email}/presence (zulip-openapi.yaml
 * get-presence, get-user-presence), the register `presence` section, and the realm's
 * presence_disabled setting.
 */
import { apiEmail, doRegister, doUpdateRealm, getRealmPresence, getUserPresence, type User } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, expectError, secondRealm, setUser, T0 } from './fixtures.js';
import { as, ping, presenceWorld, restrictGuests, S0, setRealm, sorted } from './presence-helpers.js';

type World = Awaited<ReturnType<typeof presenceWorld>>;
const userPresence = async (p: World, viewer: User, key: string | number, extra: Record<string, unknown> = {}) =>
  getUserPresence(p.w.ctx, await as(p.w, viewer), { user_id_or_email: String(key), ...extra });

describe('GET /realm/presence', () => {
  it('answers the legacy shape keyed by API email, with server_timestamp and no last_update_id', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    const answer = must(await getRealmPresence(p.w.ctx, await as(p.w, p.other), {}));
    expect(answer).toEqual({
      presences: { [apiEmail(p.w.realm, p.member)]: { aggregated: { client: 'website', status: 'active', timestamp: S0 }, website: { client: 'website', status: 'active', timestamp: S0, pushable: false } } },
      server_timestamp: T0 / 1000,
    });
    // Bots may read it (it is not a human-only endpoint); spectators may not.
    expect(must(await getRealmPresence(p.w.ctx, await as(p.w, p.bot), {}))).toEqual(answer);
    expectError(await getRealmPresence(p.w.ctx, { realm: p.w.realm, user: null }, {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('shows a restricted guest only the users they may access, and nothing when the realm disabled presence', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    await ping(p.w, p.guest);
    await restrictGuests(p.w);
    const keys = async (viewer: User) => Object.keys((must(await getRealmPresence(p.w.ctx, await as(p.w, viewer), {}))).presences);
    expect(await keys(p.guest)).toEqual([apiEmail(p.w.realm, p.guest)]);
    expect((await keys(p.other)).length).toBe(2);
    await setRealm(p.w, { presence_disabled: true });
    expect(await keys(p.other)).toEqual([]);
  });
});

describe('GET /users/{user_id_or_email}/presence', () => {
  it('answers one user’s presence by ID or API email: legacy without client names, offline once stale; modern under slim_presence', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    const expected = { presence: { aggregated: { status: 'active', timestamp: S0 }, website: { status: 'active', timestamp: S0 } } };
    expect(must(await userPresence(p, p.other, p.member.id))).toEqual(expected);
    expect(must(await userPresence(p, p.other, 'MEL@example.com'))).toEqual(expected);
    expect(must(await userPresence(p, p.bot, p.member.id, { slim_presence: 'true' }))).toEqual({ presence: { active_timestamp: S0, idle_timestamp: S0 } });
    p.advance(141);
    expect(must(await userPresence(p, p.other, p.member.id))).toEqual({ presence: { aggregated: { status: 'offline', timestamp: S0 }, website: { status: 'active', timestamp: S0 } } });
  });

  it('finds a user who hides their email by the stand-in address only', async () => {
    const p = await presenceWorld();
    const hidden = await setUser(p.w.ctx, p.member, { emailAddressVisibility: 4 });
    await ping(p.w, hidden);
    const standIn = apiEmail(p.w.realm, hidden);
    expect(standIn).toBe(`user${hidden.id}@chat.example.com`);
    expect(must(await userPresence(p, p.other, standIn))).toMatchObject({ presence: { aggregated: { status: 'active' } } });
    expectBadRequest(await userPresence(p, p.other, 'mel@example.com'), 'No such user');
    // Someone whose hidden real address looks like that stand-in does not shadow it.
    const lookalike = await setUser(p.w.ctx, await p.w.addUser({ email: standIn }), { emailAddressVisibility: 4 });
    expect(lookalike.id).not.toBe(hidden.id);
    expect(must(await userPresence(p, p.other, standIn))).toMatchObject({ presence: { aggregated: { status: 'active' } } });
    expectBadRequest(await userPresence(p, p.other, apiEmail(p.w.realm, lookalike)), `No presence data for ${apiEmail(p.w.realm, lookalike)}`);
  });

  it('refuses unknown, other realms’, deactivated and system users, bots, inaccessible users and users without data', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    const second = await secondRealm(p.w.ctx);
    expectBadRequest(await userPresence(p, p.other, 99_999), 'No such user');
    expectBadRequest(await userPresence(p, p.other, '9'.repeat(40)), 'No such user');
    expectBadRequest(await userPresence(p, p.other, `${'a'.repeat(300)}@example.com`), 'No such user');
    expectBadRequest(await userPresence(p, p.other, 'nobody@example.com'), 'No such user');
    expectBadRequest(await userPresence(p, p.other, second.owner.id), 'No such user');
    expectBadRequest(await userPresence(p, p.other, second.owner.deliveryEmail), 'No such user');
    expectBadRequest(await userPresence(p, p.other, p.bot.id), 'Presence is not supported for bot users.');
    expectBadRequest(await userPresence(p, p.other, 'mel-bot@example.com'), 'Presence is not supported for bot users.');
    // A system bot (the Notification Bot) is no user of the realm, as in the reference.
    const systemBot = await setUser(p.w.ctx, await p.w.addUser({ email: 'system-bot@example.com', bot: true }), { isSystemBot: true });
    expectBadRequest(await userPresence(p, p.other, systemBot.id), 'No such user');
    const { doDeactivateUser } = await import('@teamchat/core/internal');
    must(await doDeactivateUser(p.w.ctx, await as(p.w, p.w.owner), { user_id: p.member.id }));
    expectBadRequest(await userPresence(p, p.other, p.member.id), 'No such user');
    expectBadRequest(await userPresence(p, p.other, 'mel@example.com'), 'No such user');
    expectBadRequest(await userPresence(p, p.other, p.admin.id), `No presence data for ${p.admin.id}`);
    expectBadRequest(await userPresence(p, p.other, 'ada@example.com'), 'No presence data for ada@example.com');
    await ping(p.w, p.admin);
    await restrictGuests(p.w);
    expectBadRequest(await userPresence(p, p.guest, p.admin.id), 'Insufficient permission');
    expectError(await getUserPresence.fromTransport(p.w.ctx, await as(p.w, p.other), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'user_id_or_email' argument", 400, { var_name: 'user_id_or_email' });
    expectBadRequest(await userPresence(p, p.other, p.admin.id, { slim_presence: 'maybe' }), 'slim_presence is not valid JSON');
  });

  it('answers "No presence data" while the realm disabled presence', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    await setRealm(p.w, { presence_disabled: 'true' });
    expectBadRequest(await userPresence(p, p.other, p.member.id), `No presence data for ${p.member.id}`);
  });
});

describe('register presence section', () => {
  const fetchPresence = async (p: World, user: User | null, extra: Record<string, unknown> = {}) =>
    must(await doRegister(p.w.ctx, user ? await as(p.w, user) : { realm: p.w.realm, user: null }, { fetch_event_types: ["presence"], ...extra }));

  it('gives presences (legacy by email, or modern under slim_presence), presence_last_update_id and server_timestamp', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    p.advance(86_400 * 2);
    await ping(p.w, p.other, 'idle');
    const legacy = await fetchPresence(p, p.admin);
    expect(Object.keys(legacy.presences as object).sort()).toEqual([apiEmail(p.w.realm, p.member), apiEmail(p.w.realm, p.other)].sort());
    expect(legacy).toMatchObject({ presence_last_update_id: 2, server_timestamp: T0 / 1000 + 2 * 86_400 });
    const slim = await fetchPresence(p, p.admin, { slim_presence: 'true', presence_history_limit_days: '1' });
    expect(slim.presences).toEqual({ [p.other.id]: { active_timestamp: S0, idle_timestamp: S0 + 2 * 86_400 } });
    expect(slim.presence_last_update_id).toBe(2);
    expect((await fetchPresence(p, p.admin, { presence_history_limit_days: '0' })).presences).toEqual({});
  });

  it('is empty for spectators, a realm that disabled presence, and absent unless asked for', async () => {
    const p = await presenceWorld();
    await ping(p.w, p.member);
    await setRealm(p.w, { enable_spectator_access: 'true' });
    const realm = (await as(p.w, p.w.owner)).realm;
    const spectator = must(await doRegister(p.w.ctx, { realm, user: null }, { fetch_event_types: ["presence"] }));
    expect(spectator).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    await setRealm(p.w, { presence_disabled: 'true' });
    expect(await fetchPresence(p, p.admin)).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    const other = await fetchPresence(p, p.admin, { fetch_event_types: '["realm"]' });
    expect(other).not.toHaveProperty('presences');
    expect(other).toMatchObject({ realm_presence_disabled: true, server_presence_ping_interval_seconds: 60, server_presence_offline_threshold_seconds: 140 });
  });

  it('takes the ping interval and offline threshold from the server configuration', async () => {
    const p = await presenceWorld({ config: { presencePingIntervalSeconds: 30, presenceOfflineThresholdSeconds: 90 } });
    const state = await fetchPresence(p, p.admin, { fetch_event_types: '["realm"]' });
    expect(state).toMatchObject({ server_presence_ping_interval_seconds: 30, server_presence_offline_threshold_seconds: 90, realm_presence_disabled: false });
  });
});

describe('PATCH /realm presence_disabled', () => {
  it('administrators change it; every user hears realm update_dict; others are refused', async () => {
    const p = await presenceWorld();
    p.published.splice(0);
    expect(must(await doUpdateRealm(p.w.ctx, await as(p.w, p.admin), { presence_disabled: true }))).toMatchObject({ presence_disabled: true });
    const realmEvents = p.published.filter((e) => e.event.type === 'realm');
    expect(realmEvents.map((e) => e.event)).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { presence_disabled: true } }]);
    expect([...realmEvents[0]!.userIds].sort((a, b) => a - b)).toEqual(sorted(p.w.owner, p.admin, p.member, p.other, p.guest, p.bot));
    expectError(await doUpdateRealm(p.w.ctx, await as(p.w, p.member), { presence_disabled: false }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectBadRequest(await doUpdateRealm.fromTransport(p.w.ctx, await as(p.w, p.admin), { presence_disabled: 'no' }), 'presence_disabled is not valid JSON');
    expect((await as(p.w, p.w.owner)).realm.settings.presence_disabled).toBe(true);
  });
});
