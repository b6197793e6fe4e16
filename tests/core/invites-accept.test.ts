/** POST /invites/accept: creating the account an invitation offers (README; API.md 4.5, 4.6). */
import { doAcceptInvite, doFetchApiKey } from '@teamchat/core';
import type { LoosePublishedEvent as PublishedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { recipientsOf, subscribersOf } from './channel-helpers.js';
import { expectBadRequest, expectError, reload, secondRealm } from './fixtures.js';
import { type InviteWorld, inviteWorld, keyOf } from './invite-helpers.js';

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** The key of the realm's newest invitation. */
const newestKey = async (m: InviteWorld) => (await m.stored()).at(-1)!.key;

async function subscribedTo(m: InviteWorld, userId: number): Promise<number[]> {
  const rows = await m.w.ctx.storage.read((tx) => tx.subscriptions.forUser(m.w.realm.id, userId));
  return sorted(rows.filter((r) => r.active).map((r) => r.streamId));
}

describe('POST /invites/accept: email invitations', () => {
  it('creates the account with the invitation’s role, channels and groups, and answers the login details', async () => {
    const m = await inviteWorld();
    must(
      await m.invite(m.admin, {
        invitee_emails: 'New@Example.com',
        invite_as: '300',
        stream_ids: JSON.stringify([m.general.id]),
        group_ids: JSON.stringify([m.groupId]),
      }),
    );
    m.drain();
    const result = must(await m.accept({ key: await newestKey(m), full_name: '  Nia New ' }));
    expect(result).toEqual({ user_id: result.user_id, api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/), email: 'New@Example.com' });
    const user = await reload(m.w.ctx, { realmId: m.w.realm.id, id: result.user_id });
    expect(user).toMatchObject({ deliveryEmail: 'New@Example.com', fullName: 'Nia New', role: 300, isActive: true, apiKey: result.api_key, awaitingFirstLogin: false });
    // Only the invitation's channels: the default channel is left out unless the invitation asks for it.
    expect(await subscribedTo(m, user.id)).toEqual([m.general.id]);
    const group = await m.w.ctx.storage.read((tx) => tx.userGroups.get(m.w.realm.id, m.groupId));
    expect(group!.members).toEqual([user.id]);
    expect((await m.stored())[0]!.status).toBe('used');
    // The password works.
    must(await doFetchApiKey(m.w.ctx, m.w.as(null), { username: 'new@example.com', password: 'new-password' }));
    // Events: the new user, their subscription's peers, the group change, and invites_changed to admins and the referrer.
    const types = m.published.map((p: PublishedEvent) => `${p.event.type}/${String(p.event.op ?? '')}`);
    expect(types).toContain('realm_user/add');
    expect(types).toContain('user_group/add_members');
    expect(m.published.find((p) => p.event.type === 'user_group' && p.event.group_id === m.groupId)!.event).toEqual({ type: 'user_group', op: 'add_members', group_id: m.groupId, user_ids: [user.id] });
    expect(recipientsOf(m.published, 'invites_changed')).toEqual([sorted([m.w.owner.id, m.admin.id])]);
  });

  it('adds the realm’s default channels when include_realm_default_subscriptions is true', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member, { stream_ids: JSON.stringify([m.general.id]), include_realm_default_subscriptions: 'true' }));
    const { user_id } = must(await m.accept({ key: await newestKey(m) }));
    expect(await subscribedTo(m, user_id)).toEqual(sorted([m.general.id, m.announce.id]));
    expect(await subscribersOf(m.w, m.announce)).toContain(user_id);
  });

  it('skips channels archived since the invitation', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.w.owner, { stream_ids: JSON.stringify([m.general.id, m.announce.id]) }));
    await m.w.ctx.storage.transaction(async (tx) => {
      await tx.streams.update(m.w.realm.id, m.general.id, { isArchived: true });
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    const { user_id } = must(await m.accept({ key: await newestKey(m) }));
    expect(await subscribedTo(m, user_id)).toEqual([m.announce.id]);
  });

  it('refuses a used key, and revokes the other invitations to the same address', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member, { invitee_emails: 'new@example.com' }));
    must(await m.invite(m.moderator, { invitee_emails: 'NEW@example.com' }));
    const [first, second] = await m.stored();
    m.drain();
    must(await m.accept({ key: first!.key }));
    expect((await m.stored()).map((i) => i.status)).toEqual(['used', 'revoked']);
    expect(recipientsOf(m.published, 'invites_changed')).toEqual([
      sorted([m.w.owner.id, m.admin.id, m.moderator.id]),
      sorted([m.w.owner.id, m.admin.id, m.member.id]),
    ]);
    expectBadRequest(await m.accept({ key: first!.key }), 'This invitation has already been used.');
    expectBadRequest(await m.accept({ key: second!.key }), 'The invitation link has expired or been deactivated.');
  });

  it('lets exactly one of two concurrent accepts of one email invitation create the account', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member));
    const key = await newestKey(m);
    const results = await Promise.all([m.accept({ key, full_name: 'First Try' }), m.accept({ key, full_name: 'Second Try' })]);
    expect(results.filter((r) => r.isOk())).toHaveLength(1);
    expectBadRequest(results.find((r) => r.isErr())!, 'This invitation has already been used.');
    const users = await m.w.ctx.storage.read((tx) => tx.users.list(m.w.realm.id));
    expect(users.filter((u) => u.deliveryEmail === 'new@example.com')).toHaveLength(1);
  });

  it('refuses an expired key (expiry is exclusive) and writes nothing', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member, { invite_expires_in_minutes: '10' }));
    const key = await newestKey(m);
    m.clock.advance(10 * 60_000);
    m.drain();
    const before = await m.w.ctx.storage.read((tx) => tx.users.list(m.w.realm.id));
    expectBadRequest(await m.accept({ key }), 'The invitation link has expired or been deactivated.');
    expect(await m.w.ctx.storage.read((tx) => tx.users.list(m.w.realm.id))).toEqual(before);
    expect(m.published).toEqual([]);
  });

  it('accepts until just before the expiry', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member, { invite_expires_in_minutes: '10' }));
    m.clock.advance(10 * 60_000 - 1000);
    must(await m.accept({ key: await newestKey(m) }));
  });

  it('refuses an unknown key, another realm’s key, and a mismatched email', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member));
    const key = await newestKey(m);
    const other = await secondRealm(m.w.ctx);
    expectError(await m.accept({ key: 'no-such-key' }), 'BAD_REQUEST', 'No such invitation', 404);
    expectError(await m.accept({ key }, other.realm), 'BAD_REQUEST', 'No such invitation', 404);
    expectBadRequest(await m.accept({ key, email: 'someone.else@example.com' }), 'The email address does not match the invitation.');
    must(await m.accept({ key, email: ' NEW@example.com ' }));
  });

  it('checks the name and password before anything else, and reports missing parameters', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member));
    const key = await newestKey(m);
    expectBadRequest(await m.accept({ key, full_name: 'x' }), 'Name too short!');
    expectBadRequest(await m.accept({ key, full_name: 'Bad*Name' }), 'Invalid characters in name!');
    expectBadRequest(await m.accept({ key, password: '123' }), 'The password is too weak.');
    expectError(await doAcceptInvite.fromTransport(m.w.ctx, m.w.as(null), { full_name: 'A B', password: 'new-password' }), 'REQUEST_VARIABLE_MISSING', "Missing 'key' argument", 400, { var_name: 'key' });
    expect((await m.stored())[0]!.status).toBe('pending');
  });

  it('refuses when the address got an account some other way meanwhile (and then the invitation is revoked)', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.member, { invitee_emails: 'late@example.com' }));
    const key = await newestKey(m);
    await m.w.addUser({ email: 'late@example.com' });
    expect((await m.stored())[0]!.status).toBe('revoked');
    expectBadRequest(await m.accept({ key }), 'The invitation link has expired or been deactivated.');
  });
});

describe('POST /invites/accept: reusable links', () => {
  it('creates one account per email and stays usable', async () => {
    const m = await inviteWorld();
    const { invite_link } = must(await m.link(m.admin, { invite_as: '600', stream_ids: JSON.stringify([m.general.id]) }));
    const key = keyOf(invite_link);
    const a = must(await m.accept({ key, email: 'one@example.com', full_name: 'One Person' }));
    const b = must(await m.accept({ key, email: 'two@example.com', full_name: 'Two Person' }));
    expect((await reload(m.w.ctx, { realmId: m.w.realm.id, id: b.user_id })).role).toBe(600);
    expect(await subscribedTo(m, a.user_id)).toEqual([m.general.id]);
    expect((await m.stored())[0]!.status).toBe('pending');
    expect((await m.list(m.admin)).length).toBe(1);
  });

  it('needs a valid, unused email', async () => {
    const m = await inviteWorld();
    const key = keyOf((must(await m.link(m.admin))).invite_link);
    expectError(await m.accept({ key }), 'REQUEST_VARIABLE_MISSING', "Missing 'email' argument", 400, { var_name: 'email' });
    expectBadRequest(await m.accept({ key, email: 'not-an-email' }), 'Enter a valid email address.');
    expectBadRequest(await m.accept({ key, email: 'mel@example.com' }), "Email 'mel@example.com' already in use");
  });
});
