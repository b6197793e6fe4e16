/**
 * Audit of the message endpoints (SHAPES.md 6.1–6.5): anchors, every narrow operator of 6.1,
 * matches_narrow, send/edit/delete errors and garbage input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, closeServers, expectError, expectSuccess, form } from '../helpers/http.js';
import { auditRealm } from './audit-helpers.js';

afterEach(closeServers);

async function corpus() {
  const r = await auditRealm();
  const m = {
    lunch: await r.send(r.owner, 'general', 'lunch', 'pizza time'),
    link: await r.send(r.bob, 'general', 'lunch', 'see https://example.com/x'),
    secret: await r.send(r.owner, 'secret', 'plans', 'pizza plans'),
    dm: await r.sendDm(r.owner, [r.bob.id], 'pizza dm'),
    group: await r.sendDm(r.owner, [r.bob.id, r.eve.id], 'group hello'),
    mention: await r.send(r.owner, 'general', 'other', '@**Bob** look'),
    resolved: await r.send(r.owner, 'general', '✔ done', 'fixed'),
  };
  const get = async (narrow: unknown, user = r.bob, extra: Record<string, string> = {}) =>
    expectSuccess(
      await call(r.server, 'GET', '/messages', { auth: user, query: { anchor: 'oldest', num_before: '0', num_after: '100', narrow: JSON.stringify(narrow), ...extra } }),
    ).messages.map((x: { id: number }) => x.id) as number[];
  return { r, m, get };
}

describe('GET /messages narrows (SHAPES.md 6.1)', () => {
  it('each operator, by ID and by name, with negation and legacy forms', async () => {
    const { r, m, get } = await corpus();
    expect(await get([{ operator: 'channel', operand: r.general }])).toEqual([m.lunch, m.link, m.mention, m.resolved]);
    expect(await get([['stream', 'general']])).toEqual([m.lunch, m.link, m.mention, m.resolved]);
    expect(await get([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'LUNCH' }])).toEqual([m.lunch, m.link]);
    expect(await get([{ operator: 'topic', operand: 'lunch', negated: true }, { operator: 'channel', operand: r.general }])).toEqual([m.mention, m.resolved]);
    expect(await get([{ operator: 'sender', operand: r.bob.id }])).toEqual([m.link]);
    expect(await get([{ operator: 'sender', operand: 'bob@example.com' }])).toEqual([m.link]);
    expect(await get([{ operator: 'dm', operand: [r.owner.id] }])).toEqual([m.dm]);
    expect(await get([{ operator: 'pm-with', operand: 'owner@example.com' }])).toEqual([m.dm]);
    expect(await get([{ operator: 'dm', operand: [r.owner.id, r.eve.id] }])).toEqual([m.group]);
    expect(await get([{ operator: 'dm-including', operand: r.eve.id }])).toEqual([m.group]);
    expect(await get([{ operator: 'group-pm-with', operand: 'eve@example.com' }])).toEqual([m.group]);
    expect(await get([{ operator: 'is', operand: 'dm' }])).toEqual([m.dm, m.group]);
    expect(await get([{ operator: 'is', operand: 'private' }])).toEqual([m.dm, m.group]);
    expect(await get([{ operator: 'is', operand: 'mentioned' }])).toEqual([m.mention]);
    expect(await get([{ operator: 'is', operand: 'resolved' }])).toEqual([m.resolved]);
    expect(await get([{ operator: 'is', operand: 'unread' }])).toEqual([m.lunch, m.secret, m.dm, m.group, m.mention, m.resolved]);
    expect(await get([{ operator: 'has', operand: 'link' }])).toEqual([m.link]);
    expect(await get([{ operator: 'search', operand: 'pizza' }])).toEqual([m.lunch, m.secret, m.dm]);
    expect(await get([{ operator: 'id', operand: m.link }])).toEqual([m.link]);
    expect(await get([{ operator: 'id', operand: String(m.link) }])).toEqual([m.link]);
    expect(await get([{ operator: 'near', operand: m.link }, { operator: 'channel', operand: r.general }])).toEqual([m.lunch, m.link, m.mention, m.resolved]);
    expect(await get([{ operator: 'with', operand: m.link }])).toEqual([m.lunch, m.link]);
    expect(await get([{ operator: 'mentions', operand: r.bob.id }])).toEqual([m.mention]);
    expectSuccess(await call(r.server, 'POST', `/messages/${m.lunch}/reactions`, { auth: r.owner, body: form({ emoji_name: 'tada' }) }));
    expect(await get([{ operator: 'has', operand: 'reaction' }])).toEqual([m.lunch]);
    expectSuccess(await call(r.server, 'POST', '/messages/flags', { auth: r.bob, body: form({ messages: `[${m.link}]`, op: 'add', flag: 'starred' }) }));
    expect(await get([{ operator: 'is', operand: 'starred' }])).toEqual([m.link]);
    // channels:public: shared history of public channels, for a non-subscriber too.
    expect(await get([{ operator: 'channels', operand: 'public' }], r.eve)).toEqual([m.lunch, m.link, m.mention, m.resolved]);
  });

  it('never shows private channels or DMs to outsiders, whatever the narrow', async () => {
    const { r, m, get } = await corpus();
    expect(await get([], r.eve)).toEqual([m.group]);
    expect(await get([{ operator: 'search', operand: 'pizza' }], r.eve)).toEqual([]);
    expect(await get([{ operator: 'id', operand: m.secret }], r.eve)).toEqual([]);
    expect(await get([{ operator: 'id', operand: m.dm }], r.eve)).toEqual([]);
    expect(await get([{ operator: 'channels', operand: 'public' }], r.guest)).toEqual([]);
    expect(await get([{ operator: 'channel', operand: r.general }], r.eve)).toEqual([m.lunch, m.link, m.mention, m.resolved]);
    expectError(
      await call(r.server, 'GET', '/messages', { auth: r.eve, query: { anchor: 'newest', num_before: '5', num_after: '0', narrow: JSON.stringify([{ operator: 'channel', operand: r.secret }]) } }),
      400,
      'BAD_NARROW',
      'Invalid narrow operator: unknown channel',
    );
    const matches = expectSuccess(await call(r.server, 'POST', '/messages/matches_narrow', { auth: r.eve, body: form({ msg_ids: JSON.stringify([m.secret, m.dm, m.lunch]), narrow: '[]' }) }));
    expect(Object.keys(matches.messages)).toEqual([String(m.lunch)]);
  });

  it('anchors: newest, oldest, first_unread, numeric, date, include_anchor; found_* flags', async () => {
    const { r, m, get } = await corpus();
    const page = async (query: Record<string, string>) =>
      expectSuccess(await call(r.server, 'GET', '/messages', { auth: r.bob, query: { num_before: '1', num_after: '1', narrow: JSON.stringify([['channel', r.general]]), ...query } }));
    const newest = await page({ anchor: 'newest' });
    // The reference answers "newest" with LARGER_THAN_MAX_MESSAGE_ID, not found.
    expect(newest).toMatchObject({ anchor: 10000000000000000, found_anchor: false, found_newest: true, found_oldest: false, history_limited: false });
    expect(newest.messages.map((x: { id: number }) => x.id)).toEqual([m.resolved]);
    const oldest = await page({ anchor: 'oldest' });
    expect(oldest).toMatchObject({ found_oldest: true, found_newest: false });
    expectSuccess(await call(r.server, 'POST', '/messages/flags', { auth: r.bob, body: form({ messages: `[${m.lunch}]`, op: 'add', flag: 'read' }) }));
    const unread = await page({ anchor: 'first_unread' });
    // Bob sent m.link himself: it was read from the start.
    expect(unread.anchor).toBe(m.mention);
    const numeric = await page({ anchor: String(m.link), include_anchor: 'false' });
    expect(numeric.messages.map((x: { id: number }) => x.id)).toEqual([m.lunch, m.mention]);
    expect(numeric.found_anchor).toBe(false);
    const dated = await page({ anchor: 'date', anchor_date: '2000-01-01' });
    expect(dated.anchor).toBe(m.lunch);
    const future = await page({ anchor: 'date', anchor_date: '2999-01-01T00:00:00Z' });
    expect(future.found_newest).toBe(true);
    expect(await get([{ operator: 'channel', operand: r.general }], r.bob, { message_ids: `[${m.link}]` }).catch(() => 'err')).toBe('err');
  });

  it('garbage: bad anchors, narrows, windows; unknown operators and operands', async () => {
    const { r } = await corpus();
    const get = (query: Record<string, string>) => call(r.server, 'GET', '/messages', { auth: r.bob, query });
    expectError(await get({ anchor: 'sideways', num_before: '1', num_after: '1' }), 400, 'BAD_REQUEST', 'Invalid anchor');
    expectError(await get({ anchor: 'newest', num_before: '-1', num_after: '1' }), 400, 'BAD_REQUEST', /num_before/);
    expectError(await get({ anchor: 'newest', num_before: 'x', num_after: '1' }), 400, 'BAD_REQUEST', /num_before/);
    expectError(await get({ anchor: 'newest', num_before: '3000', num_after: '3000' }), 400, 'BAD_REQUEST', /Too many messages requested/);
    expectError(await get({ anchor: 'newest', num_after: '1' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'num_before' argument");
    expectError(await get({ anchor: 'newest', num_before: '1', num_after: '1', narrow: '[{' }), 400, 'BAD_REQUEST', 'narrow is not valid JSON');
    expectError(await get({ anchor: 'newest', num_before: '1', num_after: '1', narrow: '{"a":1}' }), 400, 'BAD_REQUEST', /narrow/);
    expectError(await get({ anchor: 'newest', num_before: '1', num_after: '1', narrow: '[{"operator":"bogus","operand":"x"}]' }), 400, 'BAD_NARROW', /Invalid narrow operator/);
    expectError(await get({ anchor: 'newest', num_before: '1', num_after: '1', narrow: '[{"operator":"channel","operand":"nowhere"}]' }), 400, 'BAD_NARROW', /./);
    expectError(await get({ anchor: 'newest', num_before: '1', num_after: '1', narrow: '[{"operator":"is","operand":"bogus"}]' }), 400, 'BAD_NARROW', /./);
    expectError(await get({ anchor: 'newest', num_before: '1', num_after: '1', narrow: '[{"operator":"sender","operand":"nobody@example.com"}]' }), 400, 'BAD_NARROW', /./);
    expectError(await get({ anchor: 'date', num_before: '1', num_after: '1' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'anchor_date' argument");
    expectError(await get({ anchor: 'date', anchor_date: 'yesterday', num_before: '1', num_after: '1' }), 400, 'BAD_REQUEST', /./);
    expectError(await get({ message_ids: '[1]', anchor: 'newest' }), 400, 'BAD_REQUEST', 'Unsupported parameter combination: message_ids, anchor');
    expectError(await call(r.server, 'GET', '/messages', { query: { anchor: 'newest', num_before: '1', num_after: '1' } }), 401, 'UNAUTHORIZED', /Not logged in/);
  });
});

describe('POST/PATCH/DELETE /messages and GET /messages/{id}', () => {
  it('send errors and extra fields; nothing written on failure', async () => {
    const r = await auditRealm();
    const post = (values: Record<string, string>, user = r.eve) => call(r.server, 'POST', '/messages', { auth: user, body: form(values) });
    expectError(await post({ type: 'stream', to: 'nowhere', topic: 't', content: 'x' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel 'nowhere' does not exist", { stream: 'nowhere' });
    expectError(await post({ type: 'stream', to: '9999', topic: 't', content: 'x' }), 400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '9999' does not exist", { stream_id: 9999 });
    expectError(await post({ type: 'stream', to: 'general', content: 'x' }), 400, 'BAD_REQUEST', /topic/i);
    expectError(await post({ type: 'stream', to: 'general', topic: 't' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument");
    expectError(await post({ type: 'stream', to: 'general', topic: 't', content: '   ' }), 400, 'BAD_REQUEST', 'Message must not be empty');
    expectError(await post({ type: 'direct', to: '[9999]', content: 'x' }), 400, 'BAD_REQUEST', /Invalid user ID/);
    expectError(await post({ type: 'direct', to: '["nobody@example.com"]', content: 'x' }), 400, 'BAD_REQUEST', "Invalid email 'nobody@example.com'");
    expectError(await post({ type: 'bogus', to: 'general', topic: 't', content: 'x' }), 400, 'BAD_REQUEST', /type/);
    expectError(await post({ type: 'stream', to: 'general', topic: 't', subject: 's', content: 'x' }), 400, 'REQUEST_CONFUSING_VAR', /./);
    // A guest cannot post to a public channel they are not in. The project answers as for a
    // missing channel; the reference says "Not authorized to send to channel 'general'".
    expectError(await post({ type: 'stream', to: 'general', topic: 't', content: 'x' }, r.guest), 400, 'STREAM_DOES_NOT_EXIST', "Channel 'general' does not exist");
    // An outsider of the private channel: the same answer as an unknown channel ID.
    const hidden = await post({ type: 'stream', to: String(r.secret), topic: 't', content: 'x' });
    expect(hidden.status).toBe(400);
    const page = expectSuccess(await call(r.server, 'GET', '/messages', { auth: r.owner, query: { anchor: 'newest', num_before: '10', num_after: '0' } }));
    expect(page.messages).toEqual([]);
  });

  it('GET /messages/{id}: flags, raw_content, access', async () => {
    const r = await auditRealm();
    const id = await r.send(r.owner, 'general', 'lunch', '**bold**');
    const body = expectSuccess(await call(r.server, 'GET', `/messages/${id}`, { auth: r.bob, query: { apply_markdown: 'false' } }));
    expect(body.raw_content).toBe('**bold**');
    expect(body.message).toMatchObject({ id, content: '**bold**', content_type: 'text/x-markdown', flags: [], type: 'stream', stream_id: r.general, display_recipient: 'general', subject: 'lunch' });
    const eve = expectSuccess(await call(r.server, 'GET', `/messages/${id}`, { auth: r.eve })).message;
    expect(eve.flags).toEqual(['read', 'historical']);
    expectError(await call(r.server, 'GET', `/messages/${id}`, { auth: r.guest }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(r.server, 'GET', '/messages/0', { auth: r.bob }), 400, 'BAD_REQUEST', 'Invalid message(s)');
  });

  it('PATCH: content and moves by the right people; DELETE by sender or admin; events to those with access', async () => {
    const r = await auditRealm();
    const id = await r.send(r.bob, 'secret', 'plans', 'v1');
    const eveQ = await r.queue(r.eve, ['update_message', 'delete_message']);
    const ownerQ = await r.queue(r.owner, ['update_message', 'delete_message'], { bulk_message_deletion: true });
    expectError(await call(r.server, 'PATCH', `/messages/${id}`, { auth: r.eve, body: form({ content: 'hack' }) }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(r.server, 'PATCH', `/messages/${id}`, { auth: r.bob, body: form({}) }), 400, 'BAD_REQUEST', 'Nothing to change');
    expectError(await call(r.server, 'PATCH', `/messages/${id}`, { auth: r.bob, body: form({ content: 'x', stream_id: String(r.general) }) }), 400, 'BAD_REQUEST', /./);
    expectError(await call(r.server, 'PATCH', `/messages/${id}`, { auth: r.bob, body: form({ content: 'x', propagate_mode: 'change_all' }) }), 400, 'BAD_REQUEST', /./);
    expectError(await call(r.server, 'PATCH', `/messages/${id}`, { auth: r.bob, body: form({ topic: 'x', propagate_mode: 'sideways' }) }), 400, 'BAD_REQUEST', /propagate_mode/);
    expectSuccess(await call(r.server, 'PATCH', `/messages/${id}`, { auth: r.bob, body: form({ content: 'v2' }) }));
    const [update] = await ownerQ.events();
    expect(update).toMatchObject({ type: 'update_message', message_id: id, message_ids: [id], user_id: r.bob.id, orig_content: 'v1', content: 'v2', rendered_content: '<p>v2</p>', stream_id: r.secret, stream_name: 'secret', rendering_only: false });
    expect(update.flags).toEqual([]);
    expectError(await call(r.server, 'DELETE', `/messages/${id}`, { auth: r.eve }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectSuccess(await call(r.server, 'DELETE', `/messages/${id}`, { auth: r.owner }));
    expect(await ownerQ.events()).toEqual([{ id: expect.any(Number), type: 'delete_message', message_type: 'stream', stream_id: r.secret, topic: 'plans', message_ids: [id] }]);
    expect(await eveQ.events()).toEqual([]);
    const dm = await r.sendDm(r.owner, [r.bob.id]);
    const bobQ = await r.queue(r.bob, ['delete_message']);
    expectSuccess(await call(r.server, 'DELETE', `/messages/${dm}`, { auth: r.owner }));
    expect(await bobQ.events()).toEqual([{ id: expect.any(Number), type: 'delete_message', message_type: 'private', message_id: dm }]);
    expect(await eveQ.events()).toEqual([]);
  });
});
