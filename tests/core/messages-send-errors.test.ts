/** POST /messages: the forms of `to`, content and topic rules, and every error (nothing published on failure). */
import { doSendMessage, getMessage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { setStream } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm, setUser } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

/** The message as `viewer` (the owner by default) reads it. */
const stored = async (m: Awaited<ReturnType<typeof messageWorld>>, id: number, viewer = m.w.owner) =>
  must(await getMessage(m.w.ctx, m.w.as(viewer), { message_id: id, allow_empty_topic_name: true })) as {
    raw_content: string;
    message: { subject: string; display_recipient: unknown; stream_id?: number };
  };

describe('POST /messages: channel addressing', () => {
  it('takes a name, a JSON name, an ID and a JSON list of one', async () => {
    const m = await messageWorld();
    for (const to of ['general', '"general"', String(m.general.id), `[${m.general.id}]`, '["general"]', '  general  ']) {
      const id = await m.send(m.member, { type: 'stream', to, topic: 't', content: 'hi' });
      expect((await stored(m, id)).message.stream_id).toBe(m.general.id);
    }
    // `channel` is the new name of `stream`.
    const id = await m.send(m.member, { type: 'channel', to: 'general', topic: 't', content: 'hi' });
    expect((await stored(m, id)).message.stream_id).toBe(m.general.id);
  });

  it('answers the reference errors for channels', async () => {
    const m = await messageWorld();
    const { w, member, other, guest } = m;
    const send = (user: typeof member, params: Record<string, unknown>) => doSendMessage.fromTransport(w.ctx, w.as(user), { type: 'stream', topic: 't', content: 'x', ...params });
    expectError(await send(member, { to: 'nowhere' }), 'STREAM_DOES_NOT_EXIST', "Channel 'nowhere' does not exist", 400, { stream: 'nowhere' });
    expectError(await send(member, { to: '9999' }), 'STREAM_DOES_NOT_EXIST', "Channel with ID '9999' does not exist", 400, { stream_id: 9999 });
    // A private channel the sender may not read answers exactly as a missing one.
    expectError(await send(other, { to: 'secret' }), 'STREAM_DOES_NOT_EXIST', "Channel 'secret' does not exist", 400, { stream: 'secret' });
    expectError(await send(other, { to: String(m.secret.id) }), 'STREAM_DOES_NOT_EXIST', `Channel with ID '${m.secret.id}' does not exist`, 400, { stream_id: m.secret.id });
    // Admins see private channels' metadata, not their content: they cannot post either.
    expectError(await send(w.owner, { to: 'secret' }), 'STREAM_DOES_NOT_EXIST', "Channel 'secret' does not exist", 400, { stream: 'secret' });
    // A guest may not post to a public channel they are not subscribed to.
    expectError(await send(guest, { to: 'general' }), 'STREAM_DOES_NOT_EXIST', "Channel 'general' does not exist", 400, { stream: 'general' });
    // Another realm's channel does not exist here.
    const second = await secondRealm(w.ctx);
    m.drain();
    expectError(await doSendMessage(w.ctx, { realm: second.realm, user: second.owner }, { type: 'stream', to: String(m.general.id), topic: 't', content: 'x' }), 'STREAM_DOES_NOT_EXIST', `Channel with ID '${m.general.id}' does not exist`, 400, { stream_id: m.general.id });
    expectBadRequest(await send(member, { to: '[1,2]' }), 'Expected exactly one channel');
    expectBadRequest(await send(member, { to: '[]' }), 'Expected exactly one channel');
    expectBadRequest(await send(member, { to: 'true' }), 'Invalid data type for channel');
    expectBadRequest(await send(member, { to: '{"a":1}' }), 'Invalid data type for channel');
    expectBadRequest(await send(member, { to: '' }), "Channel name can't be empty.");
    expectBadRequest(await doSendMessage(w.ctx, w.as(member), { type: 'stream', to: 'general', content: 'x' }), 'Missing topic');
    expectError(
      await send(member, { to: 'general', subject: 'a' }),
      'REQUEST_CONFUSING_VAR',
      "Can't decide between 'topic' and 'subject' arguments",
      400,
      { var_name1: 'topic', var_name2: 'subject' },
    );
    await setStream(w, m.general, { groupSettings: { ...m.general.groupSettings, can_send_message_group: 'role:administrators' } });
    expectBadRequest(await send(member, { to: 'general' }), 'You do not have permission to post in this channel.');
    await setStream(w, m.general, { isArchived: true });
    expectBadRequest(await send(w.owner, { to: 'general' }), "Not authorized to send to channel 'general'");
    expect(m.drain()).toEqual([]);
  });

  it('lets members post to public channels they are not subscribed to (they get a copy, subscribers get theirs)', async () => {
    const m = await messageWorld();
    const bystander = await m.w.addUser({ email: 'by@example.com', fullName: 'By Stander' });
    const id = await m.post(bystander, 'hello from outside');
    expect(await m.fetchIds(bystander, [])).toEqual([id]);
    expect(await m.fetchIds(m.member, [])).toEqual([id]);
  });

  it('reads "(no topic)" and "general chat" as the empty topic, strips and truncates topics', async () => {
    const m = await messageWorld();
    for (const topic of ['(no topic)', 'general chat', '   ', '']) {
      const id = await m.post(m.member, 'x', topic);
      expect((await stored(m, id)).message.subject).toBe('');
    }
    const long = await m.post(m.member, 'x', `  ${'é'.repeat(70)}  `);
    expect((await stored(m, long)).message.subject).toBe(`${'é'.repeat(59)}…`);
    expectBadRequest(await doSendMessage(m.w.ctx, m.w.as(m.member), { type: 'stream', to: 'general', topic: 'a\0b', content: 'x' }), 'Topic must not contain null bytes');
    await setStream(m.w, m.general, { topicsPolicy: 'disable_empty_topic' });
    expectBadRequest(
      await doSendMessage(m.w.ctx, m.w.as(m.member), { type: 'stream', to: 'general', topic: 'general chat', content: 'x' }),
      'Sending messages to the general chat is not allowed in this channel.',
    );
  });
});

describe('POST /messages: content', () => {
  it('strips trailing whitespace and leading newlines, refuses empty or NUL content, truncates long content', async () => {
    const m = await messageWorld({ config: { maxMessageLength: 40 } });
    const id = await m.post(m.member, '\n\n  indented  \n\n');
    expect((await stored(m, id)).raw_content).toBe('  indented');
    const long = await m.post(m.member, 'x'.repeat(41));
    const text = (await stored(m, long)).raw_content;
    expect(text).toBe(`${'x'.repeat(40 - 20)}\n[message truncated]`);
    expect([...text]).toHaveLength(40);
    expect((await stored(m, await m.post(m.member, '😀'.repeat(40)))).raw_content).toBe('😀'.repeat(40));
    for (const content of ['', '   ', '\n\n']) {
      expectBadRequest(await doSendMessage(m.w.ctx, m.w.as(m.member), { type: 'stream', to: 'general', topic: 't', content }), 'Message must not be empty');
    }
    expectBadRequest(await doSendMessage(m.w.ctx, m.w.as(m.member), { type: 'stream', to: 'general', topic: 't', content: 'a\0b' }), 'Message must not contain null bytes');
  });

  it('validates parameters', async () => {
    const m = await messageWorld();
    const send = (params: Record<string, unknown>) => doSendMessage.fromTransport(m.w.ctx, m.w.as(m.member), params);
    expectError(await send({ to: 'general', topic: 't', content: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'type' argument", 400, { var_name: 'type' });
    expectError(await send({ type: 'stream', topic: 't', content: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'to' argument", 400, { var_name: 'to' });
    expectError(await send({ type: 'stream', to: 'general', topic: 't' }), 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", 400, { var_name: 'content' });
    expectBadRequest(await send({ type: 'broadcast', to: 'general', topic: 't', content: 'x' }), 'Invalid type');
    expectBadRequest(await send({ type: 'stream', to: 'general', topic: 't', content: 'x', read_by_sender: 'yes' }), 'read_by_sender is not valid JSON');
    expectError(await doSendMessage(m.w.ctx, m.w.as(null), { type: 'stream', to: 'general', topic: 't', content: 'x' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(m.drain()).toEqual([]);
  });
});

describe('POST /messages: direct messages', () => {
  it('takes a JSON list of IDs or of emails, a comma-separated string, and dedupes', async () => {
    const m = await messageWorld();
    const { member, other, admin } = m;
    const key = async (id: number) => ((await stored(m, id, member)).message.display_recipient as Array<{ id: number }>).map((p) => p.id);
    const pair = [member.id, other.id].sort((a, b) => a - b);
    expect(await key(await m.send(member, { type: 'direct', to: `[${other.id}]`, content: 'a' }))).toEqual(pair);
    expect(await key(await m.send(member, { type: 'private', to: `[${other.id}, ${other.id}, ${member.id}]`, content: 'a' }))).toEqual(pair);
    expect(await key(await m.send(member, { type: 'direct', to: '["OTTO@example.com"]', content: 'a' }))).toEqual(pair);
    expect(await key(await m.send(member, { type: 'direct', to: ' otto@example.com , ada@example.com', content: 'a' }))).toEqual(
      [member.id, other.id, admin.id].sort((a, b) => a - b),
    );
    expect(await key(await m.send(member, { type: 'direct', to: String(other.id), content: 'a' }))).toEqual(pair);
    // A direct message to oneself.
    expect(await key(await m.send(member, { type: 'direct', to: `[${member.id}]`, content: 'a' }))).toEqual([member.id]);
  });

  it('answers the reference errors for recipients', async () => {
    const m = await messageWorld();
    const { w, member, other } = m;
    const send = (to: string) => doSendMessage(w.ctx, w.as(member), { type: 'direct', to, content: 'x' });
    expectBadRequest(await send('[9999]'), 'Invalid user ID 9999');
    expectBadRequest(await send('["nobody@example.com"]'), "Invalid email 'nobody@example.com'");
    expectBadRequest(await send('nobody@example.com'), "Invalid email 'nobody@example.com'");
    expectBadRequest(await send('[]'), 'Message must have recipients');
    expectBadRequest(await send(''), 'Message must have recipients');
    expectBadRequest(await send(`[${other.id}, "otto@example.com"]`), 'Recipient lists may contain emails or user IDs, but not both.');
    expectBadRequest(await send('{"a":1}'), 'Invalid data type for recipients');
    expectBadRequest(await send('[true]'), 'Invalid data type for recipients');
    const second = await secondRealm(w.ctx);
    m.drain();
    expectBadRequest(await send(`[${second.owner.id}]`), `Invalid user ID ${second.owner.id}`);
    expectBadRequest(await send(`["${second.owner.deliveryEmail}"]`), `Invalid email '${second.owner.deliveryEmail}'`);
    await setUser(w.ctx, other, { isActive: false });
    expectBadRequest(await send(`[${other.id}]`), "'otto@example.com' is no longer using Zulip.");
    expect(m.drain()).toEqual([]);
  });

  it('matches emails as the API shows them: a hidden real address cannot be probed', async () => {
    const m = await messageWorld();
    const hidden = await setUser(m.w.ctx, m.other, { emailAddressVisibility: 4 });
    expectBadRequest(await doSendMessage(m.w.ctx, m.w.as(m.member), { type: 'direct', to: `["${hidden.deliveryEmail}"]`, content: 'x' }), `Invalid email '${hidden.deliveryEmail}'`);
    const id = await m.send(m.member, { type: 'direct', to: `["user${hidden.id}@chat.example.com"]`, content: 'x' });
    expect(await m.fetchIds(hidden, [])).toEqual([id]);
  });

  it('lets guests send and receive direct messages', async () => {
    const m = await messageWorld();
    const id = await m.send(m.guest, { type: 'direct', to: `[${m.member.id}]`, content: 'hi' });
    expect(await m.fetchIds(m.member, [['is', 'dm']])).toEqual([id]);
    expect(await m.fetchIds(m.guest, [])).toEqual([id]);
  });
});
