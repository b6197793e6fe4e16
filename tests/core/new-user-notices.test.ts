/** The Notification Bot's notices about new people: the referrer's DM and the signup announcement. */
import { createUserAsOperator, doCreateUser, doDeactivateUser } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type InviteWorld, inviteWorld } from './invite-helpers.js';
import { drain, history, messageQueue, storedBot } from './notification-bot-helpers.js';

const newestKey = async (m: InviteWorld) => (await m.stored()).at(-1)!.key;

describe('accepting an invitation', () => {
  it('DMs the referrer who asked, in the account’s transaction, and nobody else', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.admin, { stream_ids: JSON.stringify([m.general.id]) }));
    const adminQueue = await messageQueue(m.w, m.admin);
    const ownerQueue = await messageQueue(m.w, m.w.owner);
    const { user_id } = must(await m.accept({ key: await newestKey(m), full_name: 'Nia New' }));
    const bot = (await storedBot(m.w))!;
    const events = await drain(m.w, m.admin, adminQueue);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'message',
      flags: [],
      message: { type: 'private', sender_id: bot.id, content: `@_**Nia New|${user_id}** accepted your invitation to join Zulip!` },
    });
    expect(await drain(m.w, m.w.owner, ownerQueue)).toEqual([]);
  });

  it('sends nothing when the invitation says not to, or the referrer is deactivated', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.admin, { invitee_emails: 'a@example.com', notify_referrer_on_join: 'false' }));
    must(await m.accept({ key: await newestKey(m) }));
    must(await m.invite(m.admin, { invitee_emails: 'b@example.com' }));
    const key = await newestKey(m);
    must(await doDeactivateUser(m.w.ctx, m.w.as(m.w.owner), { user_id: m.admin.id }));
    must(await m.accept({ key }));
    expect(await storedBot(m.w)).toBeUndefined();
  });

  it('a failed accept writes no notice', async () => {
    const m = await inviteWorld();
    must(await m.invite(m.admin, {}));
    expect((await m.accept({ key: await newestKey(m), full_name: '' })).isErr()).toBe(true);
    expect(await storedBot(m.w)).toBeUndefined();
  });
});

describe('signup announcements', () => {
  it('off by default (-1): no message, so message IDs elsewhere are unchanged', async () => {
    const m = await inviteWorld();
    must(await createUserAsOperator(m.w.ctx, m.w.realm, { email: 'x@example.com', fullName: 'Xavier' }));
    expect(await storedBot(m.w)).toBeUndefined();
  });

  it('announces people made by POST /users, an invitation and the operator, in "signups"; never bots', async () => {
    const m = await inviteWorld();
    await m.setRealmSettings({ signup_announcements_stream_id: m.general.id });
    const queue = await messageQueue(m.w, m.w.owner);
    const viaApi = (must(await doCreateUser(m.w.ctx, m.w.as(m.w.owner), { email: 'api@example.com', full_name: 'Api Person', password: 'pw-123456' }))).user_id;
    must(await m.invite(m.member, { invitee_emails: 'inv@example.com', notify_referrer_on_join: 'false' }));
    const viaInvite = (must(await m.accept({ key: await newestKey(m), full_name: 'Invited Person' }))).user_id;
    const cliResult = await createUserAsOperator(m.w.ctx, m.w.realm, { email: 'cli@example.com', fullName: 'Cli Person' });
    const viaCli = must(cliResult).id;
    must(await createUserAsOperator(m.w.ctx, m.w.realm, { email: 'bot@example.com', fullName: 'Some Bot', bot: true, botOwnerId: m.w.owner.id }));
    const bot = (await storedBot(m.w))!;
    const events = await drain(m.w, m.w.owner, queue);
    expect(events.map((e) => [e.message.sender_id, e.message.display_recipient, e.message.subject, e.message.content])).toEqual(
      [viaApi, viaInvite, viaCli].map((id, i) => [bot.id, 'general', 'signups', `@_**${['Api Person', 'Invited Person', 'Cli Person'][i]}|${id}** joined this organization.`]),
    );
    expect((await history(m.w, m.w.owner)).filter((x) => x.sender_id === bot.id)).toHaveLength(3);
  });

  it('is skipped for an archived or unknown channel', async () => {
    const m = await inviteWorld();
    await m.setRealmSettings({ signup_announcements_stream_id: 99999 });
    must(await createUserAsOperator(m.w.ctx, m.w.realm, { email: 'x@example.com', fullName: 'Xavier' }));
    expect(await storedBot(m.w)).toBeUndefined();
  });
});
