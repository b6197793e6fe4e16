/** DELETE /users/{user_id} and reactivation (API.md 3, 4.14; FACTS 6.5 and 8.2). */
import { authenticateApiKey, doDeactivateUser, doReactivateUser, getUsers, memoryMailer, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { expectBadRequest, expectError, fakeClock, reload, secondRealm, setUser, snapshot, T0 } from './fixtures.js';

async function world(options: Parameters<typeof makeWorld>[0] = {}) {
  const w = await makeWorld(options);
  const admin = await w.addUser({ email: 'admin@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await w.addUser({ email: 'member@example.com', fullName: 'Mel Member', role: 400 });
  const botA = await w.addUser({ email: 'a-bot@example.com', fullName: 'Bot A', bot: true, botOwnerId: member.id });
  const botB = await w.addUser({ email: 'b-bot@example.com', fullName: 'Bot B', bot: true, botOwnerId: member.id });
  const adminBot = await w.addUser({ email: 'admin-bot@example.com', fullName: 'Admin Bot', bot: true, botOwnerId: admin.id });
  return { w, admin, member, botA, botB, adminBot };
}

const outbox = (w: World) => w.ctx.storage.read((tx) => tx.outbox.list(w.realm.id));
const isActive = async (w: World, user: User) => (await reload(w.ctx, user)).isActive;

describe('DELETE /users/{id}: deactivation', () => {
  it('deactivates the user and answers with an empty body', async () => {
    const { w, admin, member } = await world();
    expect(must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }))).toEqual({});
    expect(await reload(w.ctx, member)).toEqual({ ...member, isActive: false });
  });

  it('deactivates the bots the user owns, and no others', async () => {
    const { w, admin, member, botA, botB, adminBot } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    expect(await isActive(w, botA)).toBe(false);
    expect(await isActive(w, botB)).toBe(false);
    expect(await isActive(w, adminBot)).toBe(true);
    expect(await isActive(w, admin)).toBe(true);
  });

  it('keeps names and avatars without actions', async () => {
    const { w, admin, member, botA } = await world();
    must(await doDeactivateUser.fromTransport(w.ctx, w.as(admin), { user_id: member.id, actions: '{}' }));
    expect((await reload(w.ctx, member)).fullName).toBe('Mel Member');
    expect((await reload(w.ctx, botA)).fullName).toBe('Bot A');
  });

  it('applies delete_profile to the bots and to the user', async () => {
    const { w, admin, member, botA, botB, adminBot } = await world();
    must(await doDeactivateUser.fromTransport(w.ctx, w.as(admin), { user_id: member.id, actions: '{"delete_profile": true}' }));
    for (const user of [member, botA, botB]) {
      expect(await reload(w.ctx, user)).toEqual({
        ...user,
        isActive: false,
        fullName: `Deleted User ${user.id}`,
        avatarSource: 'G',
        avatarVersion: user.avatarVersion + 1,
        timezone: '',
      });
    }
    expect(await reload(w.ctx, adminBot)).toEqual(adminBot);
  });

  it('shows the deleted profile in GET /users', async () => {
    const { w, admin, member } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, actions: { delete_profile: true } }));
    const { members } = must(await getUsers(w.ctx, w.as(admin), { user_ids: [member.id] }));
    expect(members).toEqual([expect.objectContaining({ full_name: `Deleted User ${member.id}`, is_active: false, avatar_version: 2 })]);
  });

  it('accepts the message-deleting actions (nothing to delete before messages exist)', async () => {
    const { w, admin, member } = await world();
    const actions = { delete_public_channel_messages: true, delete_private_channel_messages: true, delete_direct_messages: false };
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, actions: actions }));
    expect((await reload(w.ctx, member)).fullName).toBe('Mel Member');
  });

  it('does not touch bots that were already deactivated', async () => {
    const { w, admin, member, botA } = await world();
    // Bot deactivation has no endpoint yet: write it directly.
    const stored = await setUser(w.ctx, botA, { isActive: false });
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, actions: { delete_profile: true } }));
    expect(await reload(w.ctx, botA)).toEqual(stored);
  });

  it('lets an owner deactivate another owner, or step out when another owner remains', async () => {
    const w = await makeWorld();
    const second = await w.addUser({ email: 'second@example.com', fullName: 'Second Owner', role: 100 });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: second.id }));
    expect(await isActive(w, second)).toBe(false);
    const third = await w.addUser({ email: 'third@example.com', fullName: 'Third Owner', role: 100 });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id }));
    expect(await isActive(w, w.owner)).toBe(false);
    expect(await isActive(w, third)).toBe(true);
  });

  it('lets an administrator deactivate themselves', async () => {
    const { w, admin } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: admin.id }));
    expect(await isActive(w, admin)).toBe(false);
  });

  it('stops the user’s and their bots’ API keys from working', async () => {
    const { w, admin, member, botA } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    for (const user of [member, botA]) {
      expectError(await authenticateApiKey(w.ctx, w.realm, user.deliveryEmail, user.apiKey), 'UNAUTHORIZED', 'Account is deactivated', 401);
    }
  });
});

describe('DELETE /users/{id}: notification email', () => {
  it('queues no mail without a comment, or with a null one', async () => {
    const { w, admin, member } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: admin.id, deactivation_notification_comment: null }));
    expect(await outbox(w)).toEqual([]);
  });

  it('queues one mail to the user’s real address, with the stripped comment', async () => {
    const { w, admin, member } = await world({ clock: fakeClock() });
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: '  Thanks for everything.  ' }));
    const mails = await outbox(w);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      realmId: w.realm.id,
      to: 'member@example.com',
      subject: 'Your account on Test Org has been deactivated',
      createdAt: Math.floor(T0 / 1000),
      sentAt: null,
    });
    expect(mails[0]!.body).toContain('Your account on Test Org (http://chat.example.com) has been deactivated.');
    expect(mails[0]!.body).toContain('\n\nThanks for everything.');
    expect(mails[0]!.body).not.toContain('Thanks for everything.  ');
  });

  it('still sends a mail for an empty comment, without comment text', async () => {
    const { w, admin, member } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: '' }));
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: admin.id, deactivation_notification_comment: '   ' }));
    const mails = await outbox(w);
    expect(mails.map((m) => m.to)).toEqual(['member@example.com', 'admin@example.com']);
    for (const mail of mails) expect(mail.body).toBe('Your account on Test Org (http://chat.example.com) has been deactivated.');
  });

  it('uses the real address even when it is hidden from others', async () => {
    const { w, admin, member } = await world();
    await setUser(w.ctx, member, { emailAddressVisibility: 4 });
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: 'Bye' }));
    expect((await outbox(w))[0]!.to).toBe('member@example.com');
  });

  it('hands the mail to the mailer after commit and marks it sent', async () => {
    const mailer = memoryMailer();
    const clock = fakeClock();
    const { w, admin, member } = await world({ mailer, clock });
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: 'See you' }));
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: 'member@example.com', subject: 'Your account on Test Org has been deactivated' });
    expect(mailer.sent[0]!.body).toContain('See you');
    expect(await outbox(w)).toEqual([expect.objectContaining({ sentAt: T0 })]);
  });

  it('keeps the mail pending when the mailer fails', async () => {
    const failing = { deliver: async () => Promise.reject(new Error('smtp down')) };
    const { w, admin, member } = await world({ mailer: failing });
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: 'x' }));
    expect(await isActive(w, member)).toBe(false);
    expect(await outbox(w)).toEqual([expect.objectContaining({ sentAt: null })]);
  });

  it('limits the comment to 2000 characters', async () => {
    const { w, admin, member } = await world();
    expectBadRequest(
      await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: 'é'.repeat(2001) }),
      'deactivation_notification_comment is too long (limit: 2000 characters)',
    );
    expect(await isActive(w, member)).toBe(true);
    expect(await outbox(w)).toEqual([]);
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: 'é'.repeat(2000) }));
  });
});

describe('DELETE /users/{id}: errors', () => {
  it('refuses to deactivate the only owner (BAD_REQUEST, not CANNOT_DEACTIVATE_LAST_USER)', async () => {
    const w = await makeWorld();
    await w.addUser({ email: 'owner-bot@example.com', fullName: 'Owner Bot', bot: true, role: 100, botOwnerId: w.owner.id });
    const before = await snapshot(w.ctx, w.realm);
    expectBadRequest(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id }), 'Cannot deactivate the only organization owner');
    expect(await snapshot(w.ctx, w.realm)).toEqual(before);
  });

  it('does not count a deactivated owner as the remaining one', async () => {
    const w = await makeWorld();
    const second = await w.addUser({ email: 'second@example.com', fullName: 'Second Owner', role: 100 });
    must(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: second.id }));
    expectBadRequest(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: w.owner.id }), 'Cannot deactivate the only organization owner');
  });

  it('needs an owner to deactivate an owner', async () => {
    const { w, admin } = await world();
    expectError(await doDeactivateUser(w.ctx, w.as(admin), { user_id: w.owner.id }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(await isActive(w, w.owner)).toBe(true);
  });

  for (const [role, label] of [
    [300, 'moderator'],
    [400, 'member'],
    [600, 'guest'],
  ] as const) {
    it(`refuses a ${label} with "Insufficient permission"`, async () => {
      const { w, member } = await world();
      const caller = await w.addUser({ email: `caller-${label}@example.com`, fullName: `Caller ${label}`, role });
      expectBadRequest(await doDeactivateUser(w.ctx, w.as(caller), { user_id: member.id }), 'Insufficient permission');
      expectBadRequest(await doDeactivateUser(w.ctx, w.as(caller), { user_id: caller.id }), 'Insufficient permission');
      expect(await isActive(w, member)).toBe(true);
    });
  }

  it('says "No such user" for unknown IDs, another realm’s users and bots', async () => {
    const { w, admin, botA } = await world();
    const other = await secondRealm(w.ctx);
    expectBadRequest(await doDeactivateUser(w.ctx, w.as(admin), { user_id: 999 }), 'No such user');
    expectBadRequest(await doDeactivateUser(w.ctx, w.as(w.owner), { user_id: other.owner.id }), 'No such user');
    expectBadRequest(await doDeactivateUser(w.ctx, w.as(admin), { user_id: botA.id }), 'No such user');
    expect(await isActive(w, other.owner)).toBe(true);
    expect(await isActive(w, botA)).toBe(true);
  });

  it('says "User is deactivated" for a deactivated target', async () => {
    const { w, admin, member } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    expectBadRequest(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id, deactivation_notification_comment: 'again' }), 'User is deactivated');
    expect(await outbox(w)).toEqual([]);
  });

  it('validates actions', async () => {
    const { w, admin, member } = await world();
    const del = (actions: unknown) => doDeactivateUser.fromTransport(w.ctx, w.as(admin), { user_id: member.id, actions });
    expectBadRequest(await del('{'), 'actions is not valid JSON');
    expectBadRequest(await del('[]'), 'actions is not a dict');
    expectBadRequest(await del('{"delete_profile": "yes"}'), 'actions["delete_profile"] is not a boolean');
    expectBadRequest(await del('{"delete_everything": true}'), 'Argument "delete_everything" at actions["delete_everything"] is unexpected');
    expect(await isActive(w, member)).toBe(true);
  });

  it('is UNAUTHORIZED for spectators and needs user_id', async () => {
    const { w, admin, member } = await world();
    expectError(await doDeactivateUser(w.ctx, w.as(null), { user_id: member.id }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expectError(await doDeactivateUser.fromTransport(w.ctx, w.as(admin), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'user_id' argument", 400, { var_name: 'user_id' });
  });
});

describe('reactivation', () => {
  it('reactivates a deactivated user, whose key works again', async () => {
    const { w, admin, member } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    expect(must(await doReactivateUser(w.ctx, w.as(admin), { user_id: member.id }))).toEqual({});
    expect(await reload(w.ctx, member)).toEqual(member);
    expect(must(await authenticateApiKey(w.ctx, w.realm, member.deliveryEmail, member.apiKey)).id).toBe(member.id);
  });

  it('leaves the user’s bots deactivated, and can reactivate a bot on its own', async () => {
    const { w, admin, member, botA } = await world();
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    must(await doReactivateUser(w.ctx, w.as(admin), { user_id: member.id }));
    expect(await isActive(w, botA)).toBe(false);
    must(await doReactivateUser(w.ctx, w.as(admin), { user_id: botA.id }));
    expect(await isActive(w, botA)).toBe(true);
  });

  it('refuses an active user', async () => {
    const { w, admin, member } = await world();
    expectBadRequest(await doReactivateUser(w.ctx, w.as(admin), { user_id: member.id }), 'User is already active.');
  });

  it('needs an administrator, and a user of the realm', async () => {
    const { w, admin, member } = await world();
    const other = await secondRealm(w.ctx);
    must(await doDeactivateUser(w.ctx, w.as(admin), { user_id: admin.id }));
    const moderator = await w.addUser({ email: 'mod@example.com', fullName: 'Mo Moderator', role: 300 });
    expectBadRequest(await doReactivateUser(w.ctx, w.as(moderator), { user_id: admin.id }), 'Insufficient permission');
    expectBadRequest(await doReactivateUser(w.ctx, w.as(member), { user_id: admin.id }), 'Insufficient permission');
    expectBadRequest(await doReactivateUser(w.ctx, w.as(w.owner), { user_id: 999 }), 'No such user');
    expectBadRequest(await doReactivateUser(w.ctx, w.as(w.owner), { user_id: other.owner.id }), 'No such user');
    expectError(await doReactivateUser(w.ctx, w.as(null), { user_id: admin.id }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(await isActive(w, admin)).toBe(false);
  });
});
