/** GET /invites, DELETE /invites/{id}, DELETE /invites/multiuse/{id}, POST /invites/{id}/resend: SHAPES.md 5.11, 6.16. */
import { doResendInvite, doRevokeInvite, doRevokeMultiuseInvite, getInvites } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { recipientsOf } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm, T0 } from './fixtures.js';
import { type InviteWorld, inviteWorld, keyOf } from './invite-helpers.js';

const NOW = Math.floor(T0 / 1000);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** An email invitation by `user` to `email`; returns its ID. */
async function emailInvite(m: InviteWorld, user: InviteWorld['member'], email: string, params: Record<string, unknown> = {}): Promise<number> {
  must(await m.invite(user, { invitee_emails: email, ...params }));
  return (await m.stored()).find((i) => i.email === email)!.id;
}

describe('GET /invites', () => {
  it('lists the reference shape for both kinds; administrators see all, others their own', async () => {
    const m = await inviteWorld();
    const mine = await emailInvite(m, m.member, 'a@example.com', { invite_expires_in_minutes: 'null' });
    const theirs = await emailInvite(m, m.moderator, 'b@example.com', { notify_referrer_on_join: 'false' });
    const { invite_link } = must(await m.link(m.admin));
    const link = (await m.stored()).find((i) => i.isMultiuse)!;
    expect(await m.list(m.w.owner)).toEqual([
      { id: mine, is_multiuse: false, email: 'a@example.com', invited: NOW, expiry_date: null, invited_as: 400, invited_by_user_id: m.member.id, notify_referrer_on_join: true },
      { id: theirs, is_multiuse: false, email: 'b@example.com', invited: NOW, expiry_date: NOW + 864000, invited_as: 400, invited_by_user_id: m.moderator.id, notify_referrer_on_join: false },
      { id: link.id, is_multiuse: true, link_url: invite_link, invited: NOW, expiry_date: NOW + 864000, invited_as: 400, invited_by_user_id: m.admin.id, notify_referrer_on_join: true },
    ]);
    expect((await m.list(m.admin)).map((i) => i.id)).toEqual([mine, theirs, link.id]);
    expect((await m.list(m.member)).map((i) => i.id)).toEqual([mine]);
    expect((await m.list(m.moderator)).map((i) => i.id)).toEqual([theirs]);
    expect(await m.list(m.other)).toEqual([]);
  });

  it('leaves out expired, revoked and used invitations, and owner invitations for non-owners', async () => {
    const m = await inviteWorld();
    const soon = await emailInvite(m, m.w.owner, 'soon@example.com', { invite_expires_in_minutes: '1' });
    const owner = await emailInvite(m, m.w.owner, 'boss@example.com', { invite_as: '100' });
    const revoked = await emailInvite(m, m.w.owner, 'revoked@example.com');
    must(await doRevokeInvite(m.w.ctx, m.w.as(m.w.owner), { invite_id: revoked }));
    expect((await m.list(m.w.owner)).map((i) => i.id)).toEqual([soon, owner]);
    expect((await m.list(m.admin)).map((i) => i.id)).toEqual([soon]);
    m.clock.advance(60_000);
    expect((await m.list(m.w.owner)).map((i) => i.id)).toEqual([owner]);
  });

  it('shows nothing of another realm, and refuses guests, bots and the unauthenticated', async () => {
    const m = await inviteWorld();
    await emailInvite(m, m.w.owner, 'a@example.com');
    const other = await secondRealm(m.w.ctx);
    expect(must(await getInvites(m.w.ctx, { realm: other.realm, user: other.owner }, {}))).toEqual({ invites: [] });
    expectBadRequest(await getInvites(m.w.ctx, m.w.as(m.guest), {}), 'Not allowed for guest users');
    expectBadRequest(await getInvites(m.w.ctx, m.w.as(m.bot), {}), 'This endpoint does not accept bot requests.');
    expectError(await getInvites(m.w.ctx, m.w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('DELETE /invites/{invite_id}', () => {
  it('revokes the referrer’s own invitation, so it can no longer be accepted, and announces it', async () => {
    const m = await inviteWorld();
    const id = await emailInvite(m, m.member, 'a@example.com');
    m.drain();
    expect(must(await doRevokeInvite(m.w.ctx, m.w.as(m.member), { invite_id: id }))).toEqual({});
    expect((await m.stored())[0]!.status).toBe('revoked');
    expect(recipientsOf(m.published, 'invites_changed')).toEqual([sorted([m.w.owner.id, m.admin.id, m.member.id])]);
    expectError(await m.accept({ key: (await m.stored())[0]!.key }), 'BAD_REQUEST', 'The invitation link has expired or been deactivated.');
  });

  it('lets administrators revoke others’ invitations, owners only owner invitations', async () => {
    const m = await inviteWorld();
    const byMember = await emailInvite(m, m.member, 'a@example.com');
    const ownerInvite = await emailInvite(m, m.w.owner, 'b@example.com', { invite_as: '100' });
    m.drain();
    expectBadRequest(await doRevokeInvite(m.w.ctx, m.w.as(m.moderator), { invite_id: byMember }), 'Must be an organization administrator');
    expectBadRequest(await doRevokeInvite(m.w.ctx, m.w.as(m.other), { invite_id: byMember }), 'Must be an organization administrator');
    expectError(await doRevokeInvite(m.w.ctx, m.w.as(m.admin), { invite_id: ownerInvite }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(m.published).toEqual([]);
    must(await doRevokeInvite(m.w.ctx, m.w.as(m.admin), { invite_id: byMember }));
    must(await doRevokeInvite(m.w.ctx, m.w.as(m.w.owner), { invite_id: ownerInvite }));
    expect((await m.stored()).map((i) => i.status)).toEqual(['revoked', 'revoked']);
  });

  it('says "No such invitation" for unknown, revoked, reusable and other realms’ invitations', async () => {
    const m = await inviteWorld();
    const id = await emailInvite(m, m.w.owner, 'a@example.com');
    must(await m.link(m.w.owner));
    const linkId = (await m.stored()).find((i) => i.isMultiuse)!.id;
    const other = await secondRealm(m.w.ctx);
    const revoke = (user = m.w.owner, invite_id: unknown = String(id)) => doRevokeInvite.fromTransport(m.w.ctx, m.w.as(user), { invite_id });
    expectBadRequest(await revoke(m.w.owner, '9999'), 'No such invitation');
    expectBadRequest(await revoke(m.w.owner, String(linkId)), 'No such invitation');
    expectBadRequest(await doRevokeInvite(m.w.ctx, { realm: other.realm, user: other.owner }, { invite_id: id }), 'No such invitation');
    must(await revoke());
    expectBadRequest(await revoke(), 'No such invitation');
    expectBadRequest(await revoke(m.guest), 'Not allowed for guest users');
    expectBadRequest(await revoke(m.w.owner, 'abc'), 'invite_id is not an integer');
    expectError(await doRevokeInvite(m.w.ctx, m.w.as(null), { invite_id: id }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('DELETE /invites/multiuse/{invite_id}', () => {
  it('revokes a link once; a second time says it was revoked; email invitations are not links', async () => {
    const m = await inviteWorld();
    const { invite_link } = must(await m.link(m.admin));
    const linkId = (await m.stored())[0]!.id;
    const emailId = await emailInvite(m, m.admin, 'a@example.com');
    m.drain();
    const revoke = (user = m.admin, id = linkId) => doRevokeMultiuseInvite(m.w.ctx, m.w.as(user), { invite_id: id });
    expectBadRequest(await revoke(m.member), 'Must be an organization administrator');
    expectBadRequest(await revoke(m.admin, emailId), 'No such invitation');
    expectBadRequest(await revoke(m.admin, 9999), 'No such invitation');
    expect(m.published).toEqual([]);
    expect(must(await revoke())).toEqual({});
    expect(recipientsOf(m.published, 'invites_changed')).toEqual([sorted([m.w.owner.id, m.admin.id])]);
    expectBadRequest(await revoke(), 'Invitation has already been revoked');
    expectError(await m.accept({ key: keyOf(invite_link), email: 'x@example.com' }), 'BAD_REQUEST', 'The invitation link has expired or been deactivated.');
  });

  it('refuses another realm’s link and owner links for non-owners', async () => {
    const m = await inviteWorld();
    must(await m.link(m.w.owner, { invite_as: '100' }));
    const id = (await m.stored())[0]!.id;
    const other = await secondRealm(m.w.ctx);
    expectBadRequest(await doRevokeMultiuseInvite(m.w.ctx, { realm: other.realm, user: other.owner }, { invite_id: id }), 'No such invitation');
    expectError(await doRevokeMultiuseInvite(m.w.ctx, m.w.as(m.admin), { invite_id: id }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  });
});

describe('POST /invites/{invite_id}/resend', () => {
  it('mails the invitation again and restarts its validity from now', async () => {
    const m = await inviteWorld();
    const id = await emailInvite(m, m.member, 'a@example.com', { invite_expires_in_minutes: '60' });
    m.drain();
    m.clock.advance(30 * 60_000);
    expect(must(await doResendInvite(m.w.ctx, m.w.as(m.member), { invite_id: id }))).toEqual({});
    expect((await m.stored())[0]).toMatchObject({ invitedAt: NOW + 1800, expiresAt: NOW + 1800 + 3600, status: 'pending' });
    expect(m.mail.sent.map((mail) => mail.to)).toEqual(['a@example.com', 'a@example.com']);
    expect(m.mail.sent[1]!.body).toContain(`/join/${(await m.stored())[0]!.key}/`);
    expect(recipientsOf(m.published, 'invites_changed')).toEqual([sorted([m.w.owner.id, m.admin.id, m.member.id])]);
    expect((await m.list(m.member))[0]).toMatchObject({ invited: NOW + 1800, expiry_date: NOW + 5400 });
  });

  it('keeps a never-expiring invitation never-expiring; administrators may resend others’', async () => {
    const m = await inviteWorld();
    const id = await emailInvite(m, m.member, 'a@example.com', { invite_expires_in_minutes: 'null' });
    must(await doResendInvite(m.w.ctx, m.w.as(m.admin), { invite_id: id }));
    expect((await m.stored())[0]!.expiresAt).toBeNull();
  });

  it('refuses others’ invitations for non-administrators, links, unknown IDs and other realms, sending nothing', async () => {
    const m = await inviteWorld();
    const id = await emailInvite(m, m.member, 'a@example.com');
    must(await m.link(m.admin));
    const linkId = (await m.stored()).find((i) => i.isMultiuse)!.id;
    const other = await secondRealm(m.w.ctx);
    m.drain();
    const sent = m.mail.sent.length;
    const resend = (user = m.member, invite_id = String(id)) => doResendInvite.fromTransport(m.w.ctx, m.w.as(user), { invite_id });
    expectBadRequest(await resend(m.other), 'Must be an organization administrator');
    expectBadRequest(await resend(m.member, String(linkId)), 'No such invitation');
    expectBadRequest(await resend(m.member, '9999'), 'No such invitation');
    expectBadRequest(await doResendInvite(m.w.ctx, { realm: other.realm, user: other.owner }, { invite_id: id }), 'No such invitation');
    expectBadRequest(await resend(m.bot), 'This endpoint does not accept bot requests.');
    expect(m.mail.sent.length).toBe(sent);
    expect(m.published).toEqual([]);
    must(await doRevokeInvite(m.w.ctx, m.w.as(m.member), { invite_id: id }));
    expectBadRequest(await resend(), 'No such invitation');
  });
});
