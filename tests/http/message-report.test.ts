/** POST /messages/{message_id}/report over HTTP: the report posted by the Notification Bot, refusals, garbage input. */
import { doSendMessage, doSubscribe, doUpdateRealm, NOTIFICATION_BOT_EMAIL } from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { auditWorld, expect4xx, listen } from '../helpers/audit.js';
import { must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form } from '../helpers/http.js';

afterEach(closeServers);

async function setup({ configured = true } = {}) {
  const a = await auditWorld();
  const { world, owner, moderator, member, guest } = a;
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"general"}], principals: [owner.id, member.id, guest.id] }));
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"reports"}], invite_only: true, principals: [owner.id, moderator.id] }));
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"secret"}], invite_only: true }));
  const reports = (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, 'reports')))!.id;
  if (configured) must(await doUpdateRealm(world.ctx, world.as(owner), { moderation_request_channel_id: reports }));
  const send = async (user: typeof owner, to: string, content: string) =>
    expectSuccess(await call(a.server, 'POST', '/messages', { auth: user, body: form({ type: 'stream', to, topic: 'chat', content }) })).id as number;
  const reported = await send(member, 'general', 'rude words');
  const secret = await send(owner, 'secret', 'hidden');
  return { ...a, reports, reported, secret };
}

const report = (a: Awaited<ReturnType<typeof setup>>, user: Awaited<ReturnType<typeof setup>>['owner'], id: number | string, values: Record<string, string>) =>
  call(a.server, 'POST', `/messages/${id}/report`, { auth: user, body: form(values) });

describe('POST /messages/{message_id}/report', () => {
  it('posts the report as the Notification Bot to the moderation channel; its subscribers get the message event', async () => {
    const a = await setup();
    const moderatorEvents = await listen(a.server, a.moderator, ['message']);
    const memberEvents = await listen(a.server, a.guest, ['message']);
    expect(expectSuccess(await report(a, a.guest, a.reported, { report_type: 'spam', description: 'Buy now!' }))).toEqual({ result: 'success', msg: '' });
    const [event] = await moderatorEvents();
    expect(event.message).toMatchObject({ sender_email: NOTIFICATION_BOT_EMAIL, stream_id: a.reports, subject: 'Mel Member moderation' });
    expect(event.message.content).toContain('```quote\n**Spam**. Buy now!\n```');
    // Rendered, the reason is a quote and the reported message a spoiler with a link to it.
    const rendered = expectSuccess(await call(a.server, 'GET', `/messages/${event.message.id}`, { auth: a.moderator })).message.content;
    expect(rendered).toContain('<blockquote>\n<p><strong>Spam</strong>. Buy now!</p>\n</blockquote>');
    expect(rendered).toContain('spoiler-block');
    expect(rendered).toContain(`/near/${a.reported}`);
    // The reporter is not in the channel: they get only the Notification Bot's confirmation.
    const reporterEvents = await memberEvents();
    expect(reporterEvents.map((e) => [e.message.type, e.message.sender_email])).toEqual([['private', NOTIFICATION_BOT_EMAIL]]);
    expect(reporterEvents[0].message.content).toContain('You reported');
  });

  it('errors with their codes and statuses', async () => {
    const a = await setup();
    expectError(await report(a, a.guest, a.reported, { report_type: 'other' }), 400, 'BAD_REQUEST', 'An explanation is required.');
    expectError(await report(a, a.guest, a.reported, { report_type: 'rude' }), 400, 'BAD_REQUEST', 'Invalid report_type');
    expectError(await report(a, a.guest, a.reported, {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'report_type' argument", { var_name: 'report_type' });
    expectError(await report(a, a.guest, a.reported, { report_type: 'spam', description: 'x'.repeat(1001) }), 400, 'BAD_REQUEST', 'description is too long (limit: 1000 characters)');
    expectError(await report(a, a.member, a.secret, { report_type: 'spam' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await report(a, a.member, 424242, { report_type: 'spam' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await report(a, a.member, 'abc', { report_type: 'spam' }), 400, 'BAD_REQUEST', 'message_id is not an integer');
    must(await doSubscribe(a.world.ctx, a.other, { subscriptions: [{"name":"theirs"}] }));
    const theirs = must(await doSendMessage(a.world.ctx, a.other, { type: 'stream', to: 'theirs', topic: 't', content: 'x' }));
    expectError(await report(a, a.member, theirs.id, { report_type: 'spam' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(a.server, 'POST', `/messages/${a.reported}/report`, { body: form({ report_type: 'spam' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    // Nothing was posted by any of these.
    const page = expectSuccess(await call(a.server, 'GET', '/messages', { auth: a.owner, query: { anchor: 'newest', num_before: '10', num_after: '0', narrow: JSON.stringify([['channel', a.reports]]) } }));
    expect(page.messages).toEqual([]);
  });

  it('without a moderation request channel: refused', async () => {
    const a = await setup({ configured: false });
    expectError(await report(a, a.guest, a.reported, { report_type: 'spam' }), 400, 'BAD_REQUEST', 'Message reporting is not enabled in this organization.');
  });

  it('garbage input is a 4xx, never a 500', async () => {
    const a = await setup();
    for (const values of <Array<Record<string, string>>>[{ report_type: '' }, { report_type: 'spam', description: '\u0000' }, { report_type: 'other', description: ' ' }, { report_type: '["spam"]' }]) {
      const response = await report(a, a.guest, a.reported, values);
      expect(response.status, JSON.stringify(values)).toBeLessThan(500);
      if (response.status !== 200) expect4xx(response);
    }
    for (const id of ['-1', '1.5', '99999999999999999999', 'null']) expect4xx(await report(a, a.guest, id, { report_type: 'spam' }));
  });
});
