/**
 * Acceptance audit of invitations (API.md 2.6, 4.5, 4.6, section 7 INVITATION_FAILED, section 8):
 * each parameter and default, the role rule, channel and group permissions, the error's extra
 * fields, invites_changed events, and garbage input.
 */
import { doAddDefaultStream, doDeactivateUser, doSubscribe, doUpdateRealm, systemGroupId, type User } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { auditWorld, expect4xx, listen, UNAUTH } from '../helpers/audit.js';
import { must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const a = await auditWorld();
  const { world, owner } = a;
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"general"},{"name":"lounge"}], principals: [owner.id,a.member.id] }));
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"secret"}], invite_only: true, principals: [owner.id] }));
  const streamId = async (name: string) => (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, name)))!.id;
  const general = await streamId('general');
  must(await doAddDefaultStream(world.ctx, world.as(owner), { stream_id: general }));
  const invite = (values: Record<string, string>, user: User = a.member) =>
    call(a.server, 'POST', '/invites', { auth: user, body: form({ stream_ids: '[]', ...values }) });
  const multiuse = (values: Record<string, string>, user: User = a.admin) => call(a.server, 'POST', '/invites/multiuse', { auth: user, body: form(values) });
  const invites = async () => expectSuccess(await call(a.server, 'GET', '/invites', { auth: owner })).invites as Array<Record<string, unknown>>;
  const setRealm = async (setting: string, group: string) =>
    must(await doUpdateRealm(world.ctx, world.as(owner), { [setting]: JSON.stringify({ new: systemGroupId(group) }) }));
  return { ...a, general, lounge: await streamId('lounge'), secret: await streamId('secret'), invite, multiuse, invites, setRealm };
}

describe('POST /invites (API.md 4.5)', () => {
  it('splits addresses on commas and newlines; defaults: member role, 10-day expiry, notify the referrer', async () => {
    const { server, admin, member, invite, invites } = await setup();
    const adminEvents = await listen(server, admin, ['invites_changed']);
    const memberEvents = await listen(server, member, ['invites_changed']);
    expect(expectSuccess(await invite({ invitee_emails: 'a@example.com, b@example.com\nc@example.com,\n' }))).toEqual({ result: 'success', msg: '' });
    const listed = await invites();
    expect(listed.map((i) => i.email)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    for (const i of listed) {
      expect(i).toMatchObject({ is_multiuse: false, invited_as: 400, invited_by_user_id: member.id, notify_referrer_on_join: true });
      expect(i.expiry_date).toBe((i.invited as number) + 14400 * 60);
    }
    expect(await adminEvents()).toEqual([{ type: 'invites_changed' }]);
    expect(await memberEvents()).toEqual([{ type: 'invites_changed' }]);
  });

  it('invite_expires_in_minutes: null never expires, a number sets the expiry; notify_referrer_on_join false is kept', async () => {
    const { invite, invites } = await setup();
    expectSuccess(await invite({ invitee_emails: 'never@example.com', invite_expires_in_minutes: 'null' }));
    expectSuccess(await invite({ invitee_emails: 'hour@example.com', invite_expires_in_minutes: '60', notify_referrer_on_join: 'false' }));
    const listed = await invites();
    expect(listed.find((i) => i.email === 'never@example.com')!.expiry_date).toBeNull();
    const hour = listed.find((i) => i.email === 'hour@example.com')!;
    expect(hour.expiry_date).toBe((hour.invited as number) + 3600);
    expect(hour.notify_referrer_on_join).toBe(false);
  });

  it('a user invites only to their own role or a more restricted one', async () => {
    const { owner, admin, moderator, member, guest, invite, invites } = await setup();
    expectError(await invite({ invitee_emails: 'x@example.com', invite_as: '300' }, member), 400, 'BAD_REQUEST', 'Must be an organization administrator');
    expectError(await invite({ invitee_emails: 'x@example.com', invite_as: '200' }, moderator), 400, 'BAD_REQUEST', 'Must be an organization administrator');
    expectError(await invite({ invitee_emails: 'x@example.com', invite_as: '100' }, admin), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(await invites()).toEqual([]);
    expectSuccess(await invite({ invitee_emails: 'g@example.com', invite_as: '600' }, member));
    expectSuccess(await invite({ invitee_emails: 'm@example.com', invite_as: '400' }, member));
    expectSuccess(await invite({ invitee_emails: 'mod@example.org', invite_as: '300' }, moderator));
    expectSuccess(await invite({ invitee_emails: 'adm@example.org', invite_as: '200' }, admin));
    expectSuccess(await invite({ invitee_emails: 'own@example.org', invite_as: '100' }, owner));
    expect((await invites()).map((i) => i.invited_as).sort()).toEqual([100, 200, 300, 400, 600]);
    expectError(await invite({ invitee_emails: 'x@example.com' }, guest), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    expectError(await invite({ invitee_emails: 'x@example.com', invite_as: '500' }), 400, 'BAD_REQUEST', 'Invalid invite_as');
  });

  it('insufficient permission under can_invite_users_group', async () => {
    const { member, admin, invite, setRealm } = await setup();
    await setRealm('can_invite_users_group', 'role:administrators');
    expectError(await invite({ invitee_emails: 'x@example.com' }, member), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectSuccess(await invite({ invitee_emails: 'x@example.com' }, admin));
  });

  it('stream_ids: required; default channels always allowed; others need permission to add subscribers', async () => {
    const { server, member, admin, general, lounge, secret, invite, invites, setRealm } = await setup();
    expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'x@example.com' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_ids' argument", { var_name: 'stream_ids' });
    for (const id of [secret, 999999]) {
      expectError(await invite({ invitee_emails: 'x@example.com', stream_ids: JSON.stringify([id]) }), 400, 'BAD_REQUEST', `Invalid channel ID ${id}. No invites were sent.`);
    }
    await setRealm('can_add_subscribers_group', 'role:administrators');
    expectError(
      await invite({ invitee_emails: 'x@example.com', stream_ids: JSON.stringify([general, lounge]) }),
      400,
      'BAD_REQUEST',
      'You do not have permission to subscribe other users to channels.',
    );
    expect(await invites()).toEqual([]);
    expectSuccess(await invite({ invitee_emails: 'x@example.com', stream_ids: JSON.stringify([general]) }));
    expectSuccess(await invite({ invitee_emails: 'y@example.com', stream_ids: '[]', include_realm_default_subscriptions: 'true' }));
    expectSuccess(await invite({ invitee_emails: 'z@example.com', stream_ids: JSON.stringify([general, lounge]) }, admin));
  });

  it('group_ids need permission to add members to each group', async () => {
    const { server, owner, member, invite } = await setup();
    const group = expectSuccess(
      await call(server, 'POST', '/user_groups/create', { auth: owner, body: form({ name: 'team', description: 'T', members: JSON.stringify([owner.id]) }) }),
    ).group_id as number;
    expectError(await invite({ invitee_emails: 'x@example.com', group_ids: JSON.stringify([group]) }, member), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectSuccess(await invite({ invitee_emails: 'x@example.com', group_ids: JSON.stringify([group]) }, owner));
    expect4xx(await invite({ invitee_emails: 'y@example.com', group_ids: '[999999]' }, owner));
  });

  it('welcome_message_custom_text: at most 8000 code points, administrators only', async () => {
    const { world, admin, member, invite } = await setup();
    expectError(await invite({ invitee_emails: 'x@example.com', welcome_message_custom_text: '😀'.repeat(8001) }, admin), 400, 'BAD_REQUEST', 'welcome_message_custom_text is too long (limit: 8000 characters)');
    expectSuccess(await invite({ invitee_emails: 'x@example.com', welcome_message_custom_text: '😀'.repeat(8000) }, admin));
    expectSuccess(await invite({ invitee_emails: 'y@example.com', welcome_message_custom_text: 'from a member' }, member));
    const stored = await world.ctx.storage.read((tx) => tx.invitations.listPending(world.realm.id, 0));
    const text = (email: string) => stored.find((i) => i.email === email)!.welcomeMessageCustomText;
    expect(text('x@example.com')).toBe('😀'.repeat(8000));
    expect(text('y@example.com')).toBeNull();
  });

  it('INVITATION_FAILED carries errors, sent_invitations, license_limit_reached and daily_limit_reached', async () => {
    const { world, owner, admin, member, guest, invite, invites } = await setup();
    must(await doDeactivateUser(world.ctx, world.as(owner), { user_id: guest.id }));
    expectError(await invite({ invitee_emails: `new@example.com, ${member.deliveryEmail}, ${guest.deliveryEmail}` }, admin), 400, 'INVITATION_FAILED', /We did send invitations to everyone else!$/, {
      errors: [
        [member.deliveryEmail, 'Already has an account.', false],
        [guest.deliveryEmail, 'Account has been deactivated.', true],
      ],
      sent_invitations: true,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect((await invites()).map((i) => i.email)).toEqual(['new@example.com']);
    expectError(await invite({ invitee_emails: member.deliveryEmail }, admin), 400, 'INVITATION_FAILED', "We weren't able to invite anyone.", {
      errors: [[member.deliveryEmail, 'Already has an account.', false]],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    const bad = await invite({ invitee_emails: 'not-an-email, fresh@example.com' }, admin);
    expectError(bad, 400, 'INVITATION_FAILED', "Some emails did not validate, so we didn't send any invitations.", { sent_invitations: false, license_limit_reached: false, daily_limit_reached: false });
    expect(bad.body.errors[0].slice(0, 1)).toEqual(['not-an-email']);
    expect((await invites()).map((i) => i.email)).toEqual(['new@example.com']);
  });

  it('garbage input: always a 4xx envelope, nothing written', async () => {
    const { server, member, invite, invites } = await setup();
    expectError(await invite({ invitee_emails: '' }), 400, 'BAD_REQUEST', 'You must specify at least one email address.');
    expectError(await invite({ invitee_emails: ' , \n' }), 400, 'BAD_REQUEST', 'You must specify at least one email address.');
    expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ stream_ids: '[]' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'invitee_emails' argument");
    expectError(await invite({ invitee_emails: 'x@example.com', stream_ids: '[1,' }), 400, 'BAD_REQUEST', 'stream_ids is not valid JSON');
    expectError(await invite({ invitee_emails: 'x@example.com', stream_ids: '["a"]' }), 400, 'BAD_REQUEST', 'stream_ids[0] is not an integer');
    expectError(await invite({ invitee_emails: 'x@example.com', invite_as: 'member' }), 400, 'BAD_REQUEST', 'invite_as is not valid JSON');
    expectError(await invite({ invitee_emails: 'x@example.com', invite_expires_in_minutes: 'ten' }), 400, 'BAD_REQUEST', 'invite_expires_in_minutes is not valid JSON');
    expectError(await invite({ invitee_emails: 'x@example.com', notify_referrer_on_join: 'yes' }), 400, 'BAD_REQUEST', 'notify_referrer_on_join is not valid JSON');
    for (const values of [{ stream_ids: '{}' }, { stream_ids: 'null' }, { group_ids: '"x"' }, { invite_expires_in_minutes: '-5' }, { invite_expires_in_minutes: '1.5' }, { include_realm_default_subscriptions: '1' }, { invite_as: '1e400' }] as Record<string, string>[]) {
      expect4xx(await invite({ invitee_emails: 'x@example.com', ...values }));
    }
    expectError(await call(server, 'POST', '/invites', { body: form({ invitee_emails: 'x@example.com', stream_ids: '[]' }) }), 401, 'UNAUTHORIZED', UNAUTH);
    expect(await invites()).toEqual([]);
  });
});

describe('POST /invites/multiuse (API.md 4.6)', () => {
  it('creates a link with the same parameters; stream_ids and group_ids default to []', async () => {
    const { server, admin, general, multiuse, invites } = await setup();
    const events = await listen(server, admin, ['invites_changed']);
    const created = expectSuccess(await multiuse({}));
    expect(Object.keys(created).sort()).toEqual(['invite_link', 'msg', 'result']);
    expect(created.invite_link).toMatch(/^http:\/\/chat\.example\.com\/join\/[a-z0-9]+\/$/);
    expectSuccess(await multiuse({ invite_as: '600', invite_expires_in_minutes: 'null', stream_ids: JSON.stringify([general]), include_realm_default_subscriptions: 'true' }));
    const links = await invites();
    expect(links.map((i) => [i.is_multiuse, i.invited_as, i.link_url !== undefined])).toEqual([
      [true, 400, true],
      [true, 600, true],
    ]);
    expect(links[0]!.expiry_date).toBe((links[0]!.invited as number) + 14400 * 60);
    expect(links[1]!.expiry_date).toBeNull();
    expect(await events()).toEqual([{ type: 'invites_changed' }, { type: 'invites_changed' }]);
  });

  it('non-administrators may create links with permission; role and channel rules as for email invitations', async () => {
    const { member, moderator, owner, lounge, multiuse, setRealm } = await setup();
    expectError(await multiuse({}, member), 400, 'BAD_REQUEST', 'Insufficient permission');
    await setRealm('create_multiuse_invite_group', 'role:members');
    expectSuccess(await multiuse({}, member));
    expectError(await multiuse({ invite_as: '300' }, member), 400, 'BAD_REQUEST', 'Must be an organization administrator');
    expectError(await multiuse({ invite_as: '100' }, moderator), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    await setRealm('can_add_subscribers_group', 'role:administrators');
    expectError(await multiuse({ stream_ids: JSON.stringify([lounge]) }, member), 400, 'BAD_REQUEST', 'You do not have permission to subscribe other users to channels.');
    expectSuccess(await multiuse({ stream_ids: JSON.stringify([lounge]) }, owner));
    expectError(await multiuse({ welcome_message_custom_text: 'x'.repeat(8001) }, owner), 400, 'BAD_REQUEST', 'welcome_message_custom_text is too long (limit: 8000 characters)');
  });

  it('garbage input and missing auth', async () => {
    const { server, guest, multiuse, invites } = await setup();
    expectError(await multiuse({ stream_ids: '[' }), 400, 'BAD_REQUEST', 'stream_ids is not valid JSON');
    expectError(await multiuse({ invite_as: '7' }), 400, 'BAD_REQUEST', 'Invalid invite_as');
    expectError(await multiuse({}, guest), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    expectError(await call(server, 'POST', '/invites/multiuse', { body: form({}) }), 401, 'UNAUTHORIZED', UNAUTH);
    expect(await invites()).toEqual([]);
  });
});
