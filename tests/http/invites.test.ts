/** Invitations over HTTP: every endpoint's status and envelope, the accept flow end to end. */
import { doAddDefaultStream, doSubscribe, memoryMailer } from '@teamchat/core';
import { afterEach, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const mail = memoryMailer();
  const world = await makeWorld({ config: { timers: false }, mailer: mail });
  const admin = await world.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const guest = await world.addUser({ email: 'gus@example.com', fullName: 'Gus Guest', role: 600 });
  must(await doSubscribe(world.ctx, world.as(world.owner), { subscriptions: [{"name":"general"}] }));
  const general = (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, 'general')))!.id;
  must(await doAddDefaultStream(world.ctx, world.as(world.owner), { stream_id: general }));
  const server = await startServer(world);
  return { world, admin, member, guest, general, server, mail };
}

it('POST /invites sends invitations; GET /invites lists them; resend and revoke answer plain success', async () => {
  const { world, admin, member, general, server, mail } = await setup();
  expect(
    expectSuccess(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'a@example.com\nb@example.com', stream_ids: JSON.stringify([general]) }) })),
  ).toEqual({ result: 'success', msg: '' });
  expect(mail.sent.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
  const listed = expectSuccess(await call(server, 'GET', '/invites', { auth: admin }));
  expect(listed.invites).toHaveLength(2);
  expect(listed.invites[0]).toEqual({
    id: expect.any(Number),
    is_multiuse: false,
    email: 'a@example.com',
    invited: expect.any(Number),
    expiry_date: listed.invites[0].invited + 864000,
    invited_as: 400,
    invited_by_user_id: member.id,
    notify_referrer_on_join: true,
  });
  const [a, b] = listed.invites.map((i: { id: number }) => i.id);
  expect(expectSuccess(await call(server, 'POST', `/invites/${a}/resend`, { auth: member }))).toEqual({ result: 'success', msg: '' });
  expect(mail.sent).toHaveLength(3);
  expect(expectSuccess(await call(server, 'DELETE', `/invites/${b}`, { auth: world.owner }))).toEqual({ result: 'success', msg: '' });
  expectError(await call(server, 'DELETE', `/invites/${b}`, { auth: world.owner }), 400, 'BAD_REQUEST', 'No such invitation');
  expectError(await call(server, 'POST', `/invites/${b}/resend`, { auth: member }), 400, 'BAD_REQUEST', 'No such invitation');
  expect(expectSuccess(await call(server, 'GET', '/invites', { auth: member })).invites.map((i: { id: number }) => i.id)).toEqual([a]);
});

it('POST /invites errors: INVITATION_FAILED with its fields, permissions, channels, bad JSON, no credentials', async () => {
  const { member, guest, server } = await setup();
  expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'fresh@example.com, mel@example.com', stream_ids: '[]' }) }), 400, 'INVITATION_FAILED', /We did send invitations to everyone else!$/, {
    errors: [['mel@example.com', 'Already has an account.', false]],
    sent_invitations: true,
    license_limit_reached: false,
    daily_limit_reached: false,
  });
  expectError(await call(server, 'POST', '/invites', { auth: guest, body: form({ invitee_emails: 'x@example.com', stream_ids: '[]' }) }), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'x@example.com', stream_ids: '[]', invite_as: '100' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: '', stream_ids: '[]' }) }), 400, 'BAD_REQUEST', 'You must specify at least one email address.');
  expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'x@example.com', stream_ids: '[424242]' }) }), 400, 'BAD_REQUEST', 'Invalid channel ID 424242. No invites were sent.');
  expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'x@example.com', stream_ids: '[1,' }) }), 400, 'BAD_REQUEST', 'stream_ids is not valid JSON');
  expectError(await call(server, 'POST', '/invites', { auth: member, body: form({ invitee_emails: 'x@example.com' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_ids' argument", { var_name: 'stream_ids' });
  expectError(await call(server, 'POST', '/invites', { body: form({ invitee_emails: 'x@example.com', stream_ids: '[]' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  expectError(await call(server, 'GET', '/invites', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
});

it('POST /invites/multiuse, DELETE /invites/multiuse/{id} and POST /invites/accept work end to end', async () => {
  const { admin, member, general, server } = await setup();
  expectError(await call(server, 'POST', '/invites/multiuse', { auth: member, body: form({}) }), 400, 'BAD_REQUEST', 'Insufficient permission');
  const created = expectSuccess(await call(server, 'POST', '/invites/multiuse', { auth: admin, body: form({ invite_as: '600', stream_ids: JSON.stringify([general]) }) }));
  expect(created).toEqual({ result: 'success', msg: '', invite_link: expect.stringMatching(/^http:\/\/chat\.example\.com\/join\/[a-z0-9]{32}\/$/) });
  const key = /\/join\/([a-z0-9]+)\/$/.exec(created.invite_link)![1]!;

  // Unauthenticated: the key is the credential, and the answer carries what a client logs in with.
  const accepted = expectSuccess(await call(server, 'POST', '/invites/accept', { body: form({ key, email: 'joiner@example.com', full_name: 'Jo Joiner', password: 'joiner-password' }) }));
  expect(accepted).toEqual({ result: 'success', msg: '', user_id: expect.any(Number), api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/), email: 'joiner@example.com' });
  const me = expectSuccess(await call(server, 'GET', '/users/me', { auth: { deliveryEmail: 'joiner@example.com', apiKey: accepted.api_key } }));
  expect(me).toMatchObject({ user_id: accepted.user_id, role: 600, full_name: 'Jo Joiner' });
  expectError(await call(server, 'POST', '/invites/accept', { body: form({ key, full_name: 'No Email', password: 'joiner-password' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'email' argument", { var_name: 'email' });
  expectError(await call(server, 'POST', '/invites/accept', { body: form({ key: 'nope', email: 'x@example.com', full_name: 'X Y', password: 'joiner-password' }) }), 404, 'BAD_REQUEST', 'No such invitation');

  const id = expectSuccess(await call(server, 'GET', '/invites', { auth: admin })).invites[0].id;
  expectError(await call(server, 'DELETE', `/invites/multiuse/${id}`, { auth: member }), 400, 'BAD_REQUEST', 'Must be an organization administrator');
  expect(expectSuccess(await call(server, 'DELETE', `/invites/multiuse/${id}`, { auth: admin }))).toEqual({ result: 'success', msg: '' });
  expectError(await call(server, 'DELETE', `/invites/multiuse/${id}`, { auth: admin }), 400, 'BAD_REQUEST', 'Invitation has already been revoked');
  expectError(
    await call(server, 'POST', '/invites/accept', { body: form({ key, email: 'late@example.com', full_name: 'Late Comer', password: 'joiner-password' }) }),
    400,
    'BAD_REQUEST',
    'The invitation link has expired or been deactivated.',
  );
  expectError(await call(server, 'DELETE', '/invites/multiuse/abc', { auth: admin }), 400, 'BAD_REQUEST', 'invite_id is not an integer');
});
