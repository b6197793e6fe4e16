/** POST /invites and POST /invites/multiuse: API.md 4.5, 4.6, 7, 8; FACTS.md 6.4, 8.2. */
import { doInviteUsers, parseInviteeEmails } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm, T0 } from './fixtures.js';
import { inviteWorld, keyOf } from './invite-helpers.js';

const NOW = Math.floor(T0 / 1000);

describe('POST /invites: success', () => {
  it('stores one pending invitation per address with the defaults, mails each and announces invites_changed', async () => {
    const m = await inviteWorld();
    expect(must(await m.invite(m.member, { invitee_emails: 'a@example.com, b@example.com\nc@example.com' }))).toEqual({});
    const stored = await m.stored();
    expect(stored.map((i) => i.email)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect(stored[0]).toMatchObject({
      referrerId: m.member.id,
      isMultiuse: false,
      inviteAs: 400,
      streamIds: [],
      groupIds: [],
      includeRealmDefaultSubscriptions: false,
      notifyReferrerOnJoin: true,
      welcomeMessageCustomText: null,
      invitedAt: NOW,
      expiresAt: NOW + 14400 * 60,
      status: 'pending',
    });
    expect(new Set(stored.map((i) => i.key)).size).toBe(3);
    expect(m.mail.sent.map((mail) => mail.to)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect(m.mail.sent[0]!.subject).toBe('Mel Member invited you to join Test Org');
    expect(m.mail.sent[0]!.body).toContain(`http://chat.example.com/join/${stored[0]!.key}/`);
    // One event, to the administrators and the inviter (not to the moderator, other members, guests).
    expect(m.published.map((p) => p.event)).toEqual([{ type: 'invites_changed' }]);
    expect(recipientsOf(m.published, 'invites_changed')).toEqual([[m.w.owner.id, m.admin.id, m.member.id].sort((a, b) => a - b)]);
  });

  it('reaches a registered administrator’s queue as a bare invites_changed event', async () => {
    const m = await inviteWorld();
    const { queue_id } = await register(m.w, m.admin);
    must(await m.invite(m.member));
    expect((await queued(m.w, m.admin, queue_id)).map(({ id: _id, ...event }) => event)).toEqual([{ type: 'invites_changed' }]);
  });

  it('stores every chosen parameter', async () => {
    const m = await inviteWorld();
    must(
      await m.invite(m.admin, {
        invite_as: '300',
        invite_expires_in_minutes: '60',
        stream_ids: JSON.stringify([m.general.id, m.announce.id]),
        group_ids: JSON.stringify([m.groupId]),
        include_realm_default_subscriptions: 'true',
        notify_referrer_on_join: 'false',
        welcome_message_custom_text: 'Welcome **aboard**',
      }),
    );
    expect((await m.stored())[0]).toMatchObject({
      inviteAs: 300,
      expiresAt: NOW + 3600,
      streamIds: [m.general.id, m.announce.id],
      groupIds: [m.groupId],
      includeRealmDefaultSubscriptions: true,
      notifyReferrerOnJoin: false,
      welcomeMessageCustomText: 'Welcome **aboard**',
    });
  });

  it('never expires with invite_expires_in_minutes null; in-process values need no JSON', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.w.owner, { invite_expires_in_minutes: 'null' }));
    must(await doInviteUsers(m.w.ctx, m.w.as(m.w.owner), { invitee_emails: 'x@example.com', stream_ids: [], invite_expires_in_minutes: null, invite_as: 100 }));
    expect((await m.stored()).map((i) => [i.expiresAt, i.inviteAs])).toEqual([[null, 400], [null, 100]]);
  });

  it('stores the welcome text as null for non-administrators', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.moderator, { welcome_message_custom_text: 'Hi' }));
    must(await m.invite(m.admin, { invitee_emails: 'e@example.com', welcome_message_custom_text: '' }));
    expect((await m.stored()).map((i) => i.welcomeMessageCustomText)).toEqual([null, '']);
  });

  it('accepts a welcome text of exactly 8000 code points', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.w.owner, { welcome_message_custom_text: '😀'.repeat(8000) }));
    expect((await m.stored())[0]!.welcomeMessageCustomText).toBe('😀'.repeat(8000));
  });

  it('lets each role invite to its own role or a more restricted one (API.md 5)', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.w.owner, { invite_as: '100' }));
    must(await m.invite(m.admin, { invite_as: '200', invitee_emails: 'b@example.com' }));
    must(await m.invite(m.moderator, { invite_as: '300', invitee_emails: 'c@example.com' }));
    must(await m.invite(m.member, { invite_as: '600', invitee_emails: 'd@example.com' }));
    expect((await m.stored()).map((i) => i.inviteAs)).toEqual([100, 200, 300, 600]);
  });

  it('accepts default channels and channels the inviter can reach, including a private one they are in', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.w.owner, { stream_ids: JSON.stringify([m.secret.id, m.announce.id, m.secret.id]) }));
    expect((await m.stored())[0]!.streamIds).toEqual([m.secret.id, m.announce.id]);
  });
});

describe('POST /invites: invitee_emails', () => {
  it('splits on commas and newlines, reduces Name <addr>, strips, skips empties and repeats', () => {
    expect(parseInviteeEmails(' a@example.com ,\n\nJo Doe <jo@example.com>, A@EXAMPLE.com,,b@example.com\n')).toEqual([
      'a@example.com',
      'jo@example.com',
      'b@example.com',
    ]);
  });

  it('needs at least one address', async () => {
    const m = await inviteWorld();
    expectBadRequest(await m.invite(m.member, { invitee_emails: '' }), 'You must specify at least one email address.');
    expectBadRequest(await m.invite(m.member, { invitee_emails: ' ,\n , ' }), 'You must specify at least one email address.');
    expect(await m.stored()).toEqual([]);
    expect(m.published).toEqual([]);
  });

  it('refuses every address when one does not validate, listing the invalid and existing ones', async () => {
    const m = await inviteWorld();
    const result = await m.invite(m.member, { invitee_emails: 'ok@example.com, not-an-email, mel@example.com' });
    expectError(result, 'INVITATION_FAILED', "Some emails did not validate, so we didn't send any invitations.", 400, {
      errors: [
        ['not-an-email', 'Invalid address.', false],
        ['mel@example.com', 'Already has an account.', false],
      ],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect(await m.stored()).toEqual([]);
    expect(m.mail.sent).toEqual([]);
    expect(m.published).toEqual([]);
  });

  it('refuses when every address has an account, active or deactivated, and writes nothing', async () => {
    const m = await inviteWorld();
    await m.w.ctx.storage.transaction(async (tx) => {
      await tx.users.update(m.w.realm.id, m.other.id, { isActive: false });
      return { isOk: () => true, isErr: () => false, value: undefined } as never;
    });
    const result = await m.invite(m.member, { invitee_emails: 'MEL@example.com, otto@example.com' });
    expectError(result, 'INVITATION_FAILED', "We weren't able to invite anyone.", 400, {
      errors: [
        ['MEL@example.com', 'Already has an account.', false],
        ['otto@example.com', 'Account has been deactivated.', true],
      ],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect(await m.stored()).toEqual([]);
    expect(m.published).toEqual([]);
  });

  it('invites the others when some addresses have accounts, and says so with INVITATION_FAILED', async () => {
    const m = await inviteWorld();
    const result = await m.invite(m.member, { invitee_emails: 'fresh@example.com, mel@example.com' });
    expectError(
      result,
      'INVITATION_FAILED',
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      400,
      { errors: [['mel@example.com', 'Already has an account.', false]], sent_invitations: true, license_limit_reached: false, daily_limit_reached: false },
    );
    expect((await m.stored()).map((i) => i.email)).toEqual(['fresh@example.com']);
    expect(m.mail.sent.map((mail) => mail.to)).toEqual(['fresh@example.com']);
    expect(recipientsOf(m.published, 'invites_changed')).toHaveLength(1);
  });

  it('does not count another realm’s accounts as existing', async () => {
    const m = await inviteWorld();
    await secondRealm(m.w.ctx);
    must(await m.invite(m.member, { invitee_emails: 'boss@other.example.net' }));
  });
});

describe('POST /invites: permissions and roles', () => {
  it('refuses guests, bots and users outside can_invite_users_group', async () => {
    const m = await inviteWorld();
    expectBadRequest(await m.invite(m.guest), 'Not allowed for guest users');
    expectBadRequest(await m.invite(m.bot), 'This endpoint does not accept bot requests.');
    await m.setRealmSettings({ can_invite_users_group: 'role:administrators' });
    expectBadRequest(await m.invite(m.moderator), 'Insufficient permission');
    must(await m.invite(m.admin));
  });

  it('refuses roles above the inviter’s own with the reference’s texts', async () => {
    const m = await inviteWorld();
    expectError(await m.invite(m.admin, { invite_as: '100' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectError(await m.invite(m.member, { invite_as: '100' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectBadRequest(await m.invite(m.moderator, { invite_as: '200' }), 'Must be an organization administrator');
    expectBadRequest(await m.invite(m.member, { invite_as: '300' }), 'Must be an organization administrator');
    expect(await m.stored()).toEqual([]);
    expect(m.published).toEqual([]);
  });

  it('checks the role before the addresses (the reference’s order)', async () => {
    const m = await inviteWorld();
    expectBadRequest(await m.invite(m.member, { invite_as: '200', invitee_emails: '' }), 'Must be an organization administrator');
  });
});

describe('POST /invites: channels and groups', () => {
  it('refuses unknown, private-unreachable, archived and other realms’ channels', async () => {
    const m = await inviteWorld();
    const other = await secondRealm(m.w.ctx);
    const theirs = await m.w.ctx.storage.read((tx) => tx.streams.list(other.realm.id));
    const ids = [9999, m.secret.id, ...theirs.map((s) => s.id)];
    for (const id of ids) {
      expectBadRequest(await m.invite(m.member, { stream_ids: JSON.stringify([m.general.id, id]) }), `Invalid channel ID ${id}. No invites were sent.`);
    }
    expect(await m.stored()).toEqual([]);
  });

  it('needs stream_ids to be default channels when the inviter may not subscribe others (FL 342)', async () => {
    const m = await inviteWorld();
    await m.setRealmSettings({ can_add_subscribers_group: 'role:administrators' });
    expectBadRequest(
      await m.invite(m.member, { stream_ids: JSON.stringify([m.announce.id, m.general.id]) }),
      'You do not have permission to subscribe other users to channels.',
    );
    must(await m.invite(m.member, { invitee_emails: 'a@example.com', stream_ids: JSON.stringify([m.announce.id]) }));
    // Empty channels, and the realm's defaults through include_realm_default_subscriptions, are fine.
    must(await m.invite(m.member, { include_realm_default_subscriptions: 'true' }));
    must(await m.invite(m.admin, { invitee_emails: 'b@example.com', stream_ids: JSON.stringify([m.general.id]) }));
  });

  it('refuses groups that do not exist, are another realm’s, or the inviter may not manage', async () => {
    const m = await inviteWorld();
    expectBadRequest(await m.invite(m.member, { group_ids: '[9999]' }), 'Invalid user group');
    expectBadRequest(await m.invite(m.moderator, { group_ids: JSON.stringify([m.groupId]) }), 'Insufficient permission');
    must(await m.invite(m.admin, { group_ids: JSON.stringify([m.groupId]) }));
    must(await m.invite(m.member, { invitee_emails: 'b@example.com', group_ids: 'null' }));
    expect((await m.stored()).map((i) => i.groupIds)).toEqual([[m.groupId], []]);
  });
});

describe('POST /invites: malformed input', () => {
  it('reports missing and malformed parameters with the reference’s texts', async () => {
    const m = await inviteWorld();
    const { ctx } = m.w;
    const as = m.w.as(m.member);
    expectError(await doInviteUsers.fromTransport(ctx, as, { stream_ids: [] }), 'REQUEST_VARIABLE_MISSING', "Missing 'invitee_emails' argument", 400, { var_name: 'invitee_emails' });
    expectError(await doInviteUsers.fromTransport(ctx, as, { invitee_emails: 'a@example.com' }), 'REQUEST_VARIABLE_MISSING', "Missing 'stream_ids' argument", 400, { var_name: 'stream_ids' });
    expectBadRequest(await m.invite(m.member, { stream_ids: '[1' }), 'stream_ids is not valid JSON');
    expectBadRequest(await m.invite(m.member, { stream_ids: '"x"' }), 'stream_ids is not a list');
    expectBadRequest(await m.invite(m.member, { stream_ids: '["1"]' }), 'stream_ids[0] is not an integer');
    expectBadRequest(await m.invite(m.member, { group_ids: '{}' }), 'group_ids is not a list');
    expectBadRequest(await m.invite(m.member, { invite_as: '500' }), 'Invalid invite_as');
    expectBadRequest(await m.invite(m.member, { invite_as: 'member' }), 'invite_as is not valid JSON');
    expectBadRequest(await m.invite(m.member, { invite_expires_in_minutes: '0' }), 'invite_expires_in_minutes is too small');
    expectBadRequest(await m.invite(m.member, { invite_expires_in_minutes: '-5' }), 'invite_expires_in_minutes is too small');
    expectBadRequest(await m.invite(m.member, { invite_expires_in_minutes: '1.5' }), 'invite_expires_in_minutes is not an integer');
    expectBadRequest(await m.invite(m.member, { notify_referrer_on_join: 'yes' }), 'notify_referrer_on_join is not valid JSON');
    expectBadRequest(await m.invite(m.member, { include_realm_default_subscriptions: '1' }), 'include_realm_default_subscriptions is not a boolean');
    expectBadRequest(
      await m.invite(m.admin, { welcome_message_custom_text: 'x'.repeat(8001) }),
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
    expectError(await doInviteUsers(ctx, m.w.as(null), { invitee_emails: 'a@example.com', stream_ids: [] }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(await m.stored()).toEqual([]);
    expect(m.published).toEqual([]);
  });
});

describe('POST /invites/multiuse', () => {
  it('returns a link whose key is stored with the choices; stream_ids defaults to []', async () => {
    const m = await inviteWorld();
    const { invite_link } = must(await m.link(m.admin, { invite_as: '600', invite_expires_in_minutes: '30', group_ids: JSON.stringify([m.groupId]) }));
    expect(invite_link).toMatch(/^http:\/\/chat\.example\.com\/join\/[a-z0-9]{32}\/$/);
    expect(await m.stored()).toEqual([
      expect.objectContaining({
        isMultiuse: true,
        email: null,
        key: keyOf(invite_link),
        referrerId: m.admin.id,
        inviteAs: 600,
        streamIds: [],
        groupIds: [m.groupId],
        expiresAt: NOW + 1800,
        notifyReferrerOnJoin: true,
      }),
    ]);
    expect(m.mail.sent).toEqual([]);
    expect(recipientsOf(m.published, 'invites_changed')).toEqual([[m.w.owner.id, m.admin.id].sort((a, b) => a - b)]);
  });

  it('needs create_multiuse_invite_group (administrators by default), then applies the role and channel rules', async () => {
    const m = await inviteWorld();
    expectBadRequest(await m.link(m.member), 'Insufficient permission');
    expectBadRequest(await m.link(m.guest), 'Not allowed for guest users');
    await m.setRealmSettings({ create_multiuse_invite_group: 'role:members' });
    must(await m.link(m.member, { stream_ids: JSON.stringify([m.general.id]) }));
    expectBadRequest(await m.link(m.member, { invite_as: '200' }), 'Must be an organization administrator');
    expectError(await m.link(m.admin, { invite_as: '100' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expectBadRequest(await m.link(m.member, { stream_ids: '[9999]' }), 'Invalid channel ID 9999. No invites were sent.');
    expectBadRequest(await m.link(m.member, { stream_ids: 'nope' }), 'stream_ids is not valid JSON');
    expect((await m.stored()).length).toBe(1);
  });

  it('ignores notify_referrer_on_join and invitee_emails (not parameters of this endpoint)', async () => {
    const m = await inviteWorld();
    must(await m.link(m.w.owner, { notify_referrer_on_join: 'false', invitee_emails: 'a@example.com' }));
    expect((await m.stored())[0]).toMatchObject({ email: null, notifyReferrerOnJoin: true });
  });
});
