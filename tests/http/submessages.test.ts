/** POST /submessage over HTTP: a /poll message's widget, votes with their event, errors and garbage as 4xx. */
import { doSendMessage, doSubscribe } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuditWorld, auditWorld, expect4xx, listen } from '../helpers/audit.js';
import { must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const a = await auditWorld();
  const { world, owner, member, guest } = a;
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"general"}], principals: [owner.id, member.id, guest.id] }));
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"secret"}], invite_only: true }));
  const poll = expectSuccess(await call(a.server, 'POST', '/messages', { auth: member, body: form({ type: 'stream', to: 'general', topic: 'lunch', content: '/poll Lunch?\n- Pizza\n- Soup' }) })).id as number;
  const secret = expectSuccess(await call(a.server, 'POST', '/messages', { auth: owner, body: form({ type: 'stream', to: 'secret', topic: 't', content: '/poll Hidden?' }) })).id as number;
  return { ...a, poll, secret };
}

const submit = (a: AuditWorld, user: AuditWorld['owner'], messageId: number | string, content: string, msgType = 'widget') =>
  call(a.server, 'POST', '/submessage', { auth: user, body: form({ message_id: String(messageId), msg_type: msgType, content }) });

describe('POST /submessage', () => {
  it('a /poll message carries its widget; a vote is stored, shown in order and announced to readers', async () => {
    const a = await setup();
    const ownerEvents = await listen(a.server, a.owner, ['submessage']);
    const got = expectSuccess(await call(a.server, 'GET', `/messages/${a.poll}`, { auth: a.guest }));
    expect(got.message.submessages).toEqual([
      {
        id: expect.any(Number),
        message_id: a.poll,
        sender_id: a.member.id,
        msg_type: 'widget',
        content: '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Soup"]}}',
      },
    ]);
    const vote = '{"type":"vote","key":"canned,1","vote":1}';
    // Multipart, as some clients send forms.
    expect(expectSuccess(await call(a.server, 'POST', '/submessage', { auth: a.guest, body: multipart({ message_id: String(a.poll), msg_type: 'widget', content: vote }) }))).toEqual({
      result: 'success',
      msg: '',
    });
    const after = expectSuccess(await call(a.server, 'GET', '/messages', { auth: a.owner, query: { anchor: String(a.poll), num_before: '0', num_after: '0' } }));
    const submessages = after.messages[0].submessages;
    expect(submessages.map((s: { sender_id: number }) => s.sender_id)).toEqual([a.member.id, a.guest.id]);
    expect(await ownerEvents()).toEqual([
      { type: 'submessage', msg_type: 'widget', message_id: a.poll, submessage_id: submessages[1].id, sender_id: a.guest.id, content: vote },
    ]);
  });

  it('errors with their codes and statuses; nothing is stored by a refusal', async () => {
    const a = await setup();
    const plain = must(await doSendMessage(a.world.ctx, a.world.as(a.owner), { type: 'stream', to: 'general', topic: 't', content: 'plain' }));
    expectError(await submit(a, a.member, plain.id, '{}'), 400, 'BAD_REQUEST', 'You cannot attach a submessage to this message.');
    expectError(await submit(a, a.owner, a.poll, 'not json'), 400, 'BAD_REQUEST', 'Invalid json for submessage');
    expectError(await submit(a, a.owner, a.poll, '{"type":"vote","key":"k","vote":3}'), 400, 'BAD_REQUEST', 'Invalid poll data["vote"]');
    expectError(await submit(a, a.owner, a.poll, '{"type":"question","question":"Mine"}'), 400, 'BAD_REQUEST', "You can't edit a question unless you are the author.");
    expectError(await submit(a, a.member, a.secret, '{}'), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await submit(a, a.member, 424242, '{}'), 400, 'BAD_REQUEST', 'Invalid message(s)');
    // Another realm's message, by ID.
    must(await doSubscribe(a.world.ctx, a.other, { subscriptions: [{"name":"theirs"}] }));
    const theirs = must(await doSendMessage(a.world.ctx, a.other, { type: 'stream', to: 'theirs', topic: 't', content: '/poll Theirs?' }));
    expectError(await submit(a, a.owner, theirs.id, '{"type":"vote","key":"k","vote":1}'), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(a.server, 'POST', '/submessage', { auth: a.owner, body: form({ msg_type: 'widget', content: '{}' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'message_id' argument", { var_name: 'message_id' });
    expectError(await call(a.server, 'POST', '/submessage', { auth: a.owner, body: form({ message_id: String(a.poll), msg_type: 'widget' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' });
    expectError(await submit(a, a.owner, 'seven', '{}'), 400, 'BAD_REQUEST', 'message_id is not valid JSON');
    expectError(await submit(a, a.owner, a.poll, `"${'x'.repeat(10_001)}"`), 400, 'BAD_REQUEST', 'content is too long (limit: 10000 characters)');
    expectError(await call(a.server, 'POST', '/submessage', { body: form({ message_id: String(a.poll), msg_type: 'widget', content: '{}' }) }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    const got = expectSuccess(await call(a.server, 'GET', `/messages/${a.poll}`, { auth: a.owner }));
    expect(got.message.submessages).toHaveLength(1);
  });

  it('garbage input is a 4xx, never a 500', async () => {
    const a = await setup();
    for (const content of ['', '[', 'null', '{"type":null}', '{"type":"new_option","option":"x","idx":1e309}', '{"__proto__":{"type":"vote"}}', '"\\ud800"']) {
      const response = await submit(a, a.owner, a.poll, content);
      expect(response.status, content).toBeLessThan(500);
      if (response.status !== 200) expect4xx(response);
    }
    for (const id of ['-1', '1.5', '99999999999999999999', '[1]', 'null']) expect4xx(await submit(a, a.owner, id, '{}'));
    const wrongMethod = await call(a.server, 'GET', '/submessage', { auth: a.owner });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.allowed_methods).toEqual(['POST']);
  });

  it('POST /messages takes a zform widget_content; a bad one is a 400 with the "Widgets: " prefix', async () => {
    const a = await setup();
    const zform = { type: 'choices', heading: 'Pick', choices: [{ short_name: 'A', long_name: 'Apple', reply: 'apple' }] };
    const sent = expectSuccess(
      await call(a.server, 'POST', '/messages', {
        auth: a.member,
        body: form({ type: 'stream', to: 'general', topic: 'menu', content: 'Choose', widget_content: JSON.stringify({ widget_type: 'zform', extra_data: zform }) }),
      }),
    );
    const got = expectSuccess(await call(a.server, 'GET', `/messages/${sent.id}`, { auth: a.owner }));
    expect(JSON.parse(got.message.submessages[0].content)).toEqual({ widget_type: 'zform', extra_data: zform });
    expectError(
      await call(a.server, 'POST', '/messages', { auth: a.member, body: form({ type: 'stream', to: 'general', topic: 'menu', content: 'x', widget_content: '{"widget_type":"zform","extra_data":{}}' }) }),
      400,
      'BAD_REQUEST',
      'Widgets: zform is missing type field',
    );
  });

  it('PATCH of a widget message’s content is refused', async () => {
    const a = await setup();
    expectError(await call(a.server, 'PATCH', `/messages/${a.poll}`, { auth: a.member, body: form({ content: '/poll Dinner?' }) }), 400, 'BAD_REQUEST', 'Widgets cannot be edited.');
  });
});
