/**
 * Acceptance audit of drafts (API.md 2.4, 4.10, 4.11) and scheduled messages (2.5, section 3,
 * 4.3, section 8): every stated rule, the events to the owner, and garbage input.
 */
import { doSubscribe, type User } from '@teamchat/core';
import { ok } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { auditWorld, expect4xx, listen, UNAUTH } from '../helpers/audit.js';
import { must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const a = await auditWorld();
  const { world, owner, member, guest } = a;
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"general"}], principals: [owner.id,member.id] }));
  must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"secret"}], invite_only: true, principals: [owner.id] }));
  const streamId = async (name: string) => (await world.ctx.storage.read((tx) => tx.streams.byName(world.realm.id, name)))!.id;
  must(await doSubscribe(world.ctx, a.other, { subscriptions: [{"name":"elsewhere"}] }));
  const elsewhere = (await world.ctx.storage.read((tx) => tx.streams.byName(a.other.realm.id, 'elsewhere')))!.id;
  return { ...a, general: await streamId('general'), secret: await streamId('secret'), elsewhere, guest };
}

describe('drafts (API.md 2.4, 4.10, 4.11)', () => {
  const postDrafts = (server: Parameters<typeof call>[0], user: User, drafts: unknown) =>
    call(server, 'POST', '/drafts', { auth: user, body: form({ drafts: typeof drafts === 'string' ? drafts : JSON.stringify(drafts) }) });

  it('creates drafts of every type, ids in submission order, timestamp filled in, and a drafts add event', async () => {
    const { server, owner, member, general } = await setup();
    const events = await listen(server, member, ['drafts']);
    const ownerEvents = await listen(server, owner, ['drafts']);
    const before = Math.floor(Date.now() / 1000);
    const created = expectSuccess(
      await postDrafts(server, member, [
        { type: 'stream', to: [general], topic: 'plans', content: 'channel draft' },
        { type: 'private', to: [owner.id], topic: 'ignored', content: 'direct draft', timestamp: 1595479019 },
        { type: '', to: [owner.id], topic: 'ignored too', content: 'unaddressed draft', timestamp: 1595479020 },
      ]),
    );
    expect(Object.keys(created).sort()).toEqual(['ids', 'msg', 'result']);
    const [c, d, u] = created.ids as number[];
    expect(c! < d! && d! < u!).toBe(true);
    const listed = expectSuccess(await call(server, 'GET', '/drafts', { auth: member })).drafts;
    const byId = (id: number) => listed.find((x: { id: number }) => x.id === id);
    expect(byId(c!)).toEqual({ id: c, type: 'stream', to: [general], topic: 'plans', content: 'channel draft', timestamp: expect.any(Number) });
    expect(byId(c!).timestamp).toBeGreaterThanOrEqual(before);
    // Direct drafts keep no topic; unaddressed drafts keep neither `to` nor a topic.
    expect(byId(d!)).toEqual({ id: d, type: 'private', to: [owner.id], topic: '', content: 'direct draft', timestamp: 1595479019 });
    expect(byId(u!)).toEqual({ id: u, type: '', to: [], topic: '', content: 'unaddressed draft', timestamp: 1595479020 });
    const received = await events();
    expect(received).toEqual([{ type: 'drafts', op: 'add', drafts: [byId(c!), byId(d!), byId(u!)] }]);
    expect(await ownerEvents()).toEqual([]);
  });

  it('a channel draft needs exactly one channel the user can access', async () => {
    const { server, member, guest, general, secret, elsewhere } = await setup();
    const draft = (to: number[]) => [{ type: 'stream', to, topic: 't', content: 'x' }];
    for (const to of [[], [general, general], [general, secret]]) {
      expectError(await postDrafts(server, member, draft(to)), 400, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages');
    }
    for (const [user, id] of [[member, secret], [member, elsewhere], [member, 999999], [guest, general]] as const) {
      expectError(await postDrafts(server, user, draft([id])), 400, 'BAD_REQUEST', 'Invalid channel ID');
    }
    // A batch with one bad draft writes none of them.
    expectError(await postDrafts(server, member, [...draft([general]), ...draft([])]), 400, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages');
    expect(expectSuccess(await call(server, 'GET', '/drafts', { auth: member })).drafts).toEqual([]);
  });

  it('refuses null bytes in content and channel topics, blank content, and unknown recipients', async () => {
    const { server, member, general, other } = await setup();
    expectError(await postDrafts(server, member, [{ type: 'stream', to: [general], topic: 't', content: 'a\u0000b' }]), 400, 'BAD_REQUEST', 'Message must not contain null bytes');
    expectError(await postDrafts(server, member, [{ type: 'stream', to: [general], topic: 'a\u0000b', content: 'x' }]), 400, 'BAD_REQUEST', 'Topic must not contain null bytes');
    expectError(await postDrafts(server, member, [{ type: 'private', to: [other.user.id], topic: '', content: 'x' }]), 400, 'BAD_REQUEST', `Invalid user ID ${other.user.id}`);
    expectError(await postDrafts(server, member, [{ type: 'stream', to: [general], topic: 't', content: '   ' }]), 400, 'BAD_REQUEST', 'drafts[0]["content"] cannot be blank');
    expectError(await postDrafts(server, member, [{ type: 'stream', to: [general], topic: 't', content: 'x', timestamp: -5 }]), 400, 'BAD_REQUEST', 'Timestamp must not be negative.');
    // Over-long channel topics are truncated to max_topic_length like messages.
    const id = expectSuccess(await postDrafts(server, member, [{ type: 'stream', to: [general], topic: 'x'.repeat(70), content: 'x' }])).ids[0];
    const stored = expectSuccess(await call(server, 'GET', '/drafts', { auth: member })).drafts.find((d: { id: number }) => d.id === id);
    expect(stored.topic).toBe(`${'x'.repeat(59)}…`);
  });

  it('PATCH replaces the whole draft and sends drafts update; unknown and other users’ drafts are 404', async () => {
    const { server, owner, member, general } = await setup();
    const [id] = expectSuccess(await postDrafts(server, member, [{ type: 'stream', to: [general], topic: 't', content: 'v1', timestamp: 100 }])).ids;
    const [ownersDraft] = expectSuccess(await postDrafts(server, owner, [{ type: '', to: [], topic: '', content: 'owner', timestamp: 100 }])).ids;
    const events = await listen(server, member, ['drafts']);
    const edit = (draftId: number | string, draft: unknown, user: User = member) =>
      call(server, 'PATCH', `/drafts/${draftId}`, { auth: user, body: form({ draft: typeof draft === 'string' ? draft : JSON.stringify(draft) }) });
    expect(expectSuccess(await edit(id, { type: 'private', to: [owner.id], topic: '', content: 'v2', timestamp: 200 }))).toEqual({ result: 'success', msg: '' });
    expect(await events()).toEqual([{ type: 'drafts', op: 'update', draft: { id, type: 'private', to: [owner.id], topic: '', content: 'v2', timestamp: 200 } }]);
    expectError(await edit(999999, { type: '', to: [], topic: '', content: 'x' }), 404, 'BAD_REQUEST', 'Draft does not exist');
    expectError(await edit(ownersDraft, { type: '', to: [], topic: '', content: 'x' }), 404, 'BAD_REQUEST', 'Draft does not exist');
    expectError(await edit(id, { type: 'stream', to: [], topic: 't', content: 'x' }), 400, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages');
    expectError(await call(server, 'PATCH', `/drafts/${id}`, { auth: member }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'draft' argument");
    expectError(await edit(id, '{'), 400, 'BAD_REQUEST', 'draft is not valid JSON');
    expectError(await edit(id, { type: 'x', to: [], topic: '', content: 'x' }), 400, 'BAD_REQUEST', 'Invalid draft["type"]');
    expectError(await edit(id, { to: [], topic: '', content: 'x' }), 400, 'BAD_REQUEST', 'draft["type"] field is missing');
    expectError(await edit(id, { type: '', to: ['a'], topic: '', content: 'x' }), 400, 'BAD_REQUEST', 'draft["to"][0] is not an integer');
    expectError(await call(server, 'PATCH', `/drafts/${id}`, { body: form({ draft: '{}' }) }), 401, 'UNAUTHORIZED', UNAUTH);
    expect(await events()).toEqual([]);
    expect(expectSuccess(await call(server, 'GET', '/drafts', { auth: member })).drafts).toEqual([{ id, type: 'private', to: [owner.id], topic: '', content: 'v2', timestamp: 200 }]);
  });

  it('garbage input on POST /drafts: always a 4xx envelope, nothing written', async () => {
    const { server, member, general } = await setup();
    for (const drafts of ['', '{', '{}', '[1]', 'null', '[{"type":"stream"}]', `[{"type":"stream","to":${general},"topic":"t","content":"x"}]`, `[{"type":"stream","to":[${general}],"topic":5,"content":"x"}]`, `[{"type":"stream","to":[${general}],"topic":"t","content":"x","timestamp":"1"}]`, `[{"type":"stream","to":[1e400],"topic":"t","content":"x"}]`]) {
      expect4xx(await postDrafts(server, member, drafts));
    }
    expectError(await call(server, 'POST', '/drafts', { body: form({ drafts: '[]' }) }), 401, 'UNAUTHORIZED', UNAUTH);
    expect(expectSuccess(await call(server, 'GET', '/drafts', { auth: member })).drafts).toEqual([]);
  });
});

describe('scheduled messages (API.md 2.5, 3, 4.3)', () => {
  async function scheduled() {
    const s = await setup();
    const when = Math.floor(Date.now() / 1000) + 3600;
    const create = async (values: Record<string, string>, user: User = s.member) =>
      expectSuccess(await call(s.server, 'POST', '/scheduled_messages', { auth: user, body: form({ content: 'Hello', scheduled_delivery_timestamp: String(when), ...values }) })).scheduled_message_id as number;
    const patch = (id: number | string, values: Record<string, string>, user: User = s.member) =>
      call(s.server, 'PATCH', `/scheduled_messages/${id}`, { auth: user, body: form(values) });
    const list = async () => expectSuccess(await call(s.server, 'GET', '/scheduled_messages', { auth: s.member })).scheduled_messages;
    return { ...s, when, create, patch, list };
  }

  it('accepts every type alias, answers stream/private, and edits each field with an update event', async () => {
    const { server, owner, member, general, when, create, patch, list } = await scheduled();
    const ids = [
      await create({ type: 'channel', to: String(general), topic: 'a' }),
      await create({ type: 'stream', to: String(general), topic: 'b' }),
      await create({ type: 'direct', to: JSON.stringify([owner.id]) }),
      await create({ type: 'private', to: String(owner.id) }),
    ];
    expect((await list()).map((m: { type: string; to: unknown }) => [m.type, m.to])).toEqual([
      ['stream', general],
      ['stream', general],
      ['private', [owner.id]],
      ['private', [owner.id]],
    ]);
    const events = await listen(server, member, ['scheduled_messages']);
    const ownerEvents = await listen(server, owner, ['scheduled_messages']);
    expectSuccess(await patch(ids[0]!, { content: '**new**', topic: 'renamed', scheduled_delivery_timestamp: String(when + 60) }));
    const expected = { scheduled_message_id: ids[0], type: 'stream', to: general, topic: 'renamed', content: '**new**', rendered_content: '<p><strong>new</strong></p>', scheduled_delivery_timestamp: when + 60, failed: false };
    expect(await events()).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: expected }]);
    // Channel → direct needs `to`; the topic is dropped.
    expectError(await patch(ids[0]!, { type: 'direct' }), 400, 'BAD_REQUEST', 'Recipient required when updating type of scheduled message.');
    expectSuccess(await patch(ids[0]!, { type: 'direct', to: JSON.stringify([owner.id]), topic: 'ignored' }));
    expect((await list()).find((m: { scheduled_message_id: number }) => m.scheduled_message_id === ids[0])).not.toHaveProperty('topic');
    // Direct → channel needs `to` and a real topic.
    for (const topic of [undefined, '', '(no topic)', 'general chat']) {
      expectError(
        await patch(ids[2]!, { type: 'channel', to: String(general), ...(topic === undefined ? {} : { topic }) }),
        400,
        'BAD_REQUEST',
        'Topic required when updating scheduled message type to channel.',
      );
    }
    expectSuccess(await patch(ids[2]!, { type: 'stream', to: String(general), topic: 'now a channel' }));
    // The topic of a direct message is ignored.
    expectSuccess(await patch(ids[3]!, { topic: 'nothing' }));
    expect((await list()).find((m: { scheduled_message_id: number }) => m.scheduled_message_id === ids[3])).not.toHaveProperty('topic');
    expect(await ownerEvents()).toEqual([]);
    // DELETE sends remove.
    expectSuccess(await call(server, 'DELETE', `/scheduled_messages/${ids[1]}`, { auth: member }));
    expect((await events()).at(-1)).toEqual({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: ids[1] });
  });

  it('errors: unknown channel (with stream_id), unknown user, unknown message, past time, nothing to change', async () => {
    const { server, owner, general, secret, elsewhere, other, create, patch, list } = await scheduled();
    const id = await create({ type: 'channel', to: String(general), topic: 't' });
    const dm = await create({ type: 'direct', to: JSON.stringify([owner.id]) });
    const before = await list();
    for (const channel of [999999, secret, elsewhere]) {
      expectError(await patch(id, { to: String(channel) }), 400, 'STREAM_DOES_NOT_EXIST', `Channel with ID '${channel}' does not exist`, { stream_id: channel });
    }
    for (const user of [999999, other.user.id]) {
      expectError(await patch(dm, { to: JSON.stringify([user]) }), 400, 'BAD_REQUEST', `Invalid user ID ${user}`);
    }
    expectError(await patch(999999, { content: 'x' }), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
    expectError(await patch(id, { content: 'x' }, owner), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
    expectError(await patch(id, { scheduled_delivery_timestamp: String(Math.floor(Date.now() / 1000) - 10) }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
    expectError(await patch(id, {}), 400, 'BAD_REQUEST', 'Nothing to change');
    expectError(await patch(id, { content: '' }), 400, 'BAD_REQUEST', 'Message must not be empty');
    expectError(await patch(id, { content: 'x', scheduled_delivery_timestamp: 'soon' }), 400, 'BAD_REQUEST', 'scheduled_delivery_timestamp is not valid JSON');
    expectError(await patch(id, { scheduled_delivery_timestamp: '1.5' }), 400, 'BAD_REQUEST', 'scheduled_delivery_timestamp is not an integer');
    expectError(await patch(id, { to: '[' }), 400, 'BAD_REQUEST', 'to is not valid JSON');
    expectError(await patch(id, { type: 'bogus', to: '1' }), 400, 'BAD_REQUEST', 'Invalid type');
    expectError(await patch('abc', { content: 'x' }), 400, 'BAD_REQUEST', 'scheduled_message_id is not an integer');
    for (const values of [{ to: '"x"' }, { to: '["a"]' }, { to: 'null' }, { to: '{}' }, { to: '[1e400]' }]) expect4xx(await patch(dm, values));
    expectError(await call(server, 'PATCH', `/scheduled_messages/${id}`, { body: form({ content: 'x' }) }), 401, 'UNAUTHORIZED', UNAUTH);
    expect(await list()).toEqual(before);
  });

  it('content and topic are limited by max_message_length and max_topic_length (truncated)', async () => {
    const { server, member, general, create, patch, list } = await scheduled();
    const registered = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({}) }));
    const { max_message_length: maxContent, max_topic_length: maxTopic } = registered;
    const id = await create({ type: 'channel', to: String(general), topic: 't' });
    expectSuccess(await patch(id, { content: 'c'.repeat(maxContent + 5), topic: 'x'.repeat(maxTopic + 5) }));
    const [stored] = await list();
    expect([...stored.content].length).toBeLessThanOrEqual(maxContent);
    expect(stored.content.endsWith('[message truncated]')).toBe(true);
    expect([...stored.topic].length).toBe(maxTopic);
  });

  it('a failed message needs a new delivery time; the edit clears failed', async () => {
    const { world, member, general, when, create, patch, list } = await scheduled();
    const id = await create({ type: 'channel', to: String(general), topic: 't' });
    await world.ctx.storage.transaction(async (tx) => {
      const current = (await tx.scheduledMessages.get(world.realm.id, member.id, id))!;
      await tx.scheduledMessages.update(world.realm.id, member.id, id, { ...current, failed: true });
      return ok(undefined);
    });
    expect((await list())[0].failed).toBe(true);
    expectError(await patch(id, { content: 'retry' }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
    expect((await list())[0]).toMatchObject({ failed: true, content: 'Hello' });
    expectSuccess(await patch(id, { content: 'retry', scheduled_delivery_timestamp: String(when + 120) }));
    expect((await list())[0]).toMatchObject({ failed: false, content: 'retry', scheduled_delivery_timestamp: when + 120 });
  });
});
