/** GET/POST /drafts, PATCH/DELETE /drafts/{id}: every rule of API.md 2.4 and FACTS.md 6.2, events and the register section. */
import { doCreateDrafts, doDeleteDraft, doEditDraft, doUpdateSettings, getDrafts, type QueuedEvent, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { queued, recipientsOf, register, type Snapshot } from './channel-helpers.js';
import { expectBadRequest, expectError, type fakeClock, reload, secondRealm, T0 } from './fixtures.js';
import { type MessageWorld, messageWorld } from './message-helpers.js';

const T0_SECONDS = Math.trunc(T0 / 1000);

async function world() {
  const m = await messageWorld();
  const clock = m.w.ctx.clock as ReturnType<typeof fakeClock>;
  const create = async (user: User, drafts: unknown[]) =>
    (must(await doCreateDrafts.fromTransport(m.w.ctx, m.w.as(user), { drafts: drafts }))).ids;
  const list = async (user: User) => must(await getDrafts(m.w.ctx, m.w.as(user), {}));
  return { ...m, clock, create, list };
}

const draft = (fields: Record<string, unknown> = {}) => ({ type: 'stream', to: [], topic: 'lunch', content: 'Hello', ...fields });

describe('drafts: create, list, edit, delete', () => {
  it('creates drafts in order, answers their IDs and lists them oldest edit first with a count', async () => {
    const m = await world();
    const { member, other, general } = m;
    const ids = await m.create(member, [
      draft({ to: [general.id], timestamp: 1700000000.5 }),
      { type: 'private', to: [other.id, member.id, other.id], topic: 'ignored', content: '  dm\n\n  ' },
      { type: '', to: [general.id], topic: 'ignored', content: 'note', timestamp: null },
    ]);
    expect(ids).toHaveLength(3);
    expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    expect(await m.list(member)).toEqual({
      count: 3,
      drafts: [
        { id: ids[0], type: 'stream', to: [general.id], topic: 'lunch', content: 'Hello', timestamp: 1700000000 },
        // A direct draft keeps the other participants; content goes through normalize_body.
        { id: ids[1], type: 'private', to: [other.id], topic: '', content: '  dm', timestamp: T0_SECONDS },
        { id: ids[2], type: '', to: [], topic: '', content: 'note', timestamp: T0_SECONDS },
      ],
    });
    expect(await m.list(other)).toEqual({ count: 0, drafts: [] });
  });

  it('normalizes addressees: group drafts sorted without the user, a draft to oneself, private without to', async () => {
    const m = await world();
    const { member, other, admin } = m;
    const ids = await m.create(member, [
      { type: 'private', to: [other.id, admin.id], topic: '', content: 'group', timestamp: 1 },
      { type: 'private', to: [member.id], topic: '', content: 'self', timestamp: 2 },
      { type: 'private', to: [], topic: 'x', content: 'nobody', timestamp: 3 },
    ]);
    expect((await m.list(member)).drafts.map((d) => [d.id, d.type, d.to])).toEqual([
      [ids[0], 'private', [admin.id, other.id].sort((a, b) => a - b)],
      [ids[1], 'private', [member.id]],
      // The reference stores no recipient for it, so it reads back unaddressed.
      [ids[2], '', []],
    ]);
  });

  it('truncates channel-draft topics to max_topic_length and keeps an empty topic', async () => {
    const m = await world();
    const [a, b] = await m.create(m.member, [draft({ to: [m.general.id], topic: 'x'.repeat(70) }), draft({ to: [m.general.id], topic: '' })]);
    const drafts = (await m.list(m.member)).drafts;
    expect(drafts.find((d) => d.id === a)!.topic).toBe(`${'x'.repeat(59)}…`);
    expect(drafts.find((d) => d.id === b)!.topic).toBe('');
  });

  it('edits a draft whole (timestamp from the server when omitted) and deletes it', async () => {
    const m = await world();
    const { member, other, general } = m;
    const [id] = await m.create(member, [draft({ to: [general.id], timestamp: 5 })]);
    m.clock.advance(10_000);
    expect(must(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id, draft: { type: 'private', to: [other.id], topic: 'gone', content: 'changed' } }))).toEqual({});
    expect((await m.list(member)).drafts).toEqual([{ id, type: 'private', to: [other.id], topic: '', content: 'changed', timestamp: T0_SECONDS + 10 }]);
    expect(must(await doDeleteDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id }))).toEqual({});
    expect(await m.list(member)).toEqual({ count: 0, drafts: [] });
    expectError(await doDeleteDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id }), 'BAD_REQUEST', 'Draft does not exist', 404);
  });
});

describe('drafts: refusals', () => {
  const badCreate = async (m: MessageWorld, user: User, drafts: unknown, msg: string) =>
    expectBadRequest(await doCreateDrafts.fromTransport(m.w.ctx, m.w.as(user), { drafts: typeof drafts === 'string' ? drafts : JSON.stringify(drafts) }), msg);

  it('refuses malformed drafts with the reference texts, creating nothing and sending nothing', async () => {
    const m = await world();
    const { member, general } = m;
    m.drain();
    await badCreate(m, member, '[{', 'drafts is not valid JSON');
    await badCreate(m, member, { a: 1 }, 'drafts is not a list');
    await badCreate(m, member, [1], 'drafts[0] is not a dict');
    await badCreate(m, member, [draft({ to: [general.id], x: 1 })], 'Argument "x" at drafts[0]["x"] is unexpected');
    await badCreate(m, member, [draft({ type: 'direct' })], 'Invalid drafts[0]["type"]');
    await badCreate(m, member, [draft({ to: 'a' })], 'drafts[0]["to"] is not a list');
    await badCreate(m, member, [draft({ to: ['1'] })], 'drafts[0]["to"][0] is not an integer');
    await badCreate(m, member, [draft({ topic: 5 })], 'drafts[0]["topic"] is not a string');
    await badCreate(m, member, [draft({ content: ' \n ' })], 'drafts[0]["content"] cannot be blank');
    await badCreate(m, member, [draft({ timestamp: 'now' })], 'drafts[0]["timestamp"] is not a number');
    await badCreate(m, member, [{ type: 'stream', to: [general.id], content: 'x' }], 'drafts[0]["topic"] field is missing');
    await badCreate(m, member, [draft({ to: [general.id], content: 'a\0b' })], 'Message must not contain null bytes');
    await badCreate(m, member, [draft({ to: [general.id], timestamp: -1 })], 'Timestamp must not be negative.');
    await badCreate(m, member, [draft({ to: [general.id], topic: 'a\0b' })], 'Topic must not contain null bytes');
    await badCreate(m, member, [draft({ to: [] })], 'Must specify exactly 1 channel ID for channel messages');
    await badCreate(m, member, [draft({ to: [general.id, m.secret.id] })], 'Must specify exactly 1 channel ID for channel messages');
    await badCreate(m, member, [draft({ to: [99999] })], 'Invalid channel ID');
    await badCreate(m, member, [{ type: 'private', to: [m.other.id, 99999], topic: '', content: 'x' }], 'Invalid user ID 99999');
    // One bad draft among good ones creates none of them.
    await badCreate(m, member, [draft({ to: [general.id] }), draft({ to: [] })], 'Must specify exactly 1 channel ID for channel messages');
    expectError(await doCreateDrafts.fromTransport(m.w.ctx, m.w.as(member), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'drafts' argument", 400, { var_name: 'drafts' });
    expect(m.drain()).toEqual([]);
    expect(await m.list(member)).toEqual({ count: 0, drafts: [] });
  });

  it('refuses channels the user cannot read and users or channels of another realm', async () => {
    const m = await world();
    const second = await secondRealm(m.w.ctx);
    // `secret` is private and the other member is not subscribed; the guest is not in `general`.
    await badCreate(m, m.other, [draft({ to: [m.secret.id] })], 'Invalid channel ID');
    await badCreate(m, m.guest, [draft({ to: [m.general.id] })], 'Invalid channel ID');
    await badCreate(m, m.member, [{ type: 'private', to: [second.owner.id], topic: '', content: 'x' }], `Invalid user ID ${second.owner.id}`);
    // Nor may another realm's user name this realm's channel or users.
    const foreign = { realm: second.realm, user: second.owner };
    expectBadRequest(await doCreateDrafts.fromTransport(m.w.ctx, foreign, { drafts: [draft({ to: [m.general.id] })] }), 'Invalid channel ID');
    expectBadRequest(await doCreateDrafts(m.w.ctx, foreign, { drafts: [{ type: 'private', to: [m.member.id], topic: '', content: 'x' }] }), `Invalid user ID ${m.member.id}`);
    expect(must(await doCreateDrafts(m.w.ctx, foreign, { drafts: [] }))).toEqual({ ids: [] });
    // A subscriber of the private channel may draft to it.
    expect(await m.create(m.member, [draft({ to: [m.secret.id] })])).toHaveLength(1);
  });

  it("treats another user's or another realm's draft as nonexistent (404) and changes nothing", async () => {
    const m = await world();
    const { member, other, general } = m;
    const [id] = await m.create(member, [draft({ to: [general.id] })]);
    const second = await secondRealm(m.w.ctx);
    const body = JSON.stringify(draft({ to: [], type: '' }));
    m.drain();
    for (const [realm, user] of [[m.w.realm, other], [second.realm, second.owner]] as const) {
      expectError(await doEditDraft.fromTransport(m.w.ctx, { realm, user }, { draft_id: String(id), draft: body }), 'BAD_REQUEST', 'Draft does not exist', 404);
      expectError(await doDeleteDraft.fromTransport(m.w.ctx, { realm, user }, { draft_id: id }), 'BAD_REQUEST', 'Draft does not exist', 404);
    }
    expectError(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: '99999', draft: body }), 'BAD_REQUEST', 'Draft does not exist', 404);
    expectBadRequest(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: 'abc', draft: body }), 'draft_id is not an integer');
    expectBadRequest(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id, draft: {"type":"","to":[]} }), 'draft["topic"] field is missing');
    expectBadRequest(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: String(id), draft: '{' }), 'draft is not valid JSON');
    expectBadRequest(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id, draft: draft({ to: [] }) }), 'Must specify exactly 1 channel ID for channel messages');
    expectError(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id }), 'REQUEST_VARIABLE_MISSING', "Missing 'draft' argument", 400, { var_name: 'draft' });
    expect(m.drain()).toEqual([]);
    expect((await m.list(member)).drafts.map((d) => [d.id, d.type, d.content])).toEqual([[id, 'stream', 'Hello']]);
  });

  it('refuses every endpoint while synchronization is off, and register then has no drafts', async () => {
    const m = await world();
    const { member, general } = m;
    const [id] = await m.create(member, [draft({ to: [general.id] })]);
    must(await doUpdateSettings(m.w.ctx, m.w.as(member), { enable_drafts_synchronization: false }));
    const off = 'User has disabled synchronizing drafts.';
    m.drain();
    expectBadRequest(await getDrafts(m.w.ctx, m.w.as(member), {}), off);
    await badCreate(m, member, [draft({ to: [general.id] })], off);
    expectBadRequest(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id, draft: draft({ to: [general.id] }) }), off);
    expectBadRequest(await doDeleteDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id }), off);
    expect(m.drain().filter((p) => p.event.type === 'drafts')).toEqual([]);
    // Over HTTP every request authenticates afresh; in-process the caller passes the current user.
    expect((await register(m.w, await reload(m.w.ctx, member), { fetch_event_types: '["drafts"]' })).drafts).toEqual([]);
    must(await doUpdateSettings(m.w.ctx, m.w.as(member), { enable_drafts_synchronization: true }));
    expect((await m.list(member)).count).toBe(1);
  });

  it('refuses spectators', async () => {
    const m = await world();
    const unauth = 'Not logged in: API authentication or user session required';
    expectError(await getDrafts(m.w.ctx, m.w.as(null), {}), 'UNAUTHORIZED', unauth, 401);
    expectError(await doCreateDrafts(m.w.ctx, m.w.as(null), { drafts: [] }), 'UNAUTHORIZED', unauth, 401);
    expectError(await doEditDraft.fromTransport(m.w.ctx, m.w.as(null), { draft_id: 1, draft: {} }), 'UNAUTHORIZED', unauth, 401);
    expectError(await doDeleteDraft(m.w.ctx, m.w.as(null), { draft_id: 1 }), 'UNAUTHORIZED', unauth, 401);
  });
});

/** The reference's apply_event for drafts; the section is kept newest edit first. */
function applyDraftEvents(drafts: Snapshot[], events: readonly QueuedEvent[]): Snapshot[] {
  let next = structuredClone(drafts);
  for (const event of events) {
    if (event.type !== 'drafts') throw new Error(`unexpected ${event.type}`);
    if (event.op === 'add') next.push(...(event.drafts));
    else if (event.op === 'update') next = next.map((d) => (d.id === (event.draft).id ? (event.draft) : d));
    else next = next.filter((d) => d.id !== event.draft_id);
  }
  return next.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
}

describe('drafts: events and the register section', () => {
  it("sends add, update and remove to the owner's queues only", async () => {
    const m = await world();
    const { member, other, general } = m;
    const mine = await register(m.w, member, { event_types: '["drafts"]' });
    const theirs = await register(m.w, other, {});
    m.drain();
    const [id] = await m.create(member, [draft({ to: [general.id], timestamp: 7 })]);
    must(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id, draft: { type: '', to: [], topic: '', content: 'x', timestamp: 8 } }));
    must(await doDeleteDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: id }));
    expect(recipientsOf(m.drain(), 'drafts')).toEqual([[member.id], [member.id], [member.id]]);
    expect((await queued(m.w, member, mine.queue_id)).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'drafts', op: 'add', drafts: [{ id, type: 'stream', to: [general.id], topic: 'lunch', content: 'Hello', timestamp: 7 }] },
      { type: 'drafts', op: 'update', draft: { id, type: '', to: [], topic: '', content: 'x', timestamp: 8 } },
      { type: 'drafts', op: 'remove', draft_id: id },
    ]);
    expect((await queued(m.w, other, theirs.queue_id)).filter((e) => e.type === 'drafts')).toEqual([]);
  });

  it('verify_action: the snapshot plus the events equals a fresh register', async () => {
    const m = await world();
    const { member, other, general } = m;
    const params = { fetch_event_types: '["drafts"]', event_types: '["drafts"]' };
    const [keep, edit, drop] = await m.create(member, [draft({ to: [general.id], timestamp: 10 }), draft({ type: '', content: 'b', timestamp: 20 }), draft({ type: '', content: 'c', timestamp: 30 })]);
    const before = await register(m.w, member, params);
    expect(before.drafts.map((d: Snapshot) => d.id)).toEqual([drop, edit, keep]);
    await m.create(member, [{ type: 'private', to: [other.id], topic: '', content: 'new', timestamp: 15 }]);
    must(await doEditDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: edit, draft: draft({ type: '', content: 'b2', timestamp: 40 }) }));
    must(await doDeleteDraft.fromTransport(m.w.ctx, m.w.as(member), { draft_id: drop }));
    const applied = applyDraftEvents(before.drafts, await queued(m.w, member, before.queue_id));
    expect(applied).toEqual((await register(m.w, member, params)).drafts);
    expect(applied.map((d) => d.id)).not.toContain(drop);
  });

  it('register caps the section at 1000 drafts, newest edit first', async () => {
    const m = await world();
    const many = Array.from({ length: 1001 }, (_, i) => ({ type: '', to: [], topic: '', content: `d${i}`, timestamp: i }));
    await m.create(m.member, many);
    const drafts = (await register(m.w, m.member, { fetch_event_types: '["drafts"]' })).drafts as Snapshot[];
    expect(drafts).toHaveLength(1000);
    expect([drafts[0]!.content, drafts[999]!.content]).toEqual(['d1000', 'd1']);
    expect((await m.list(m.member)).count).toBe(1001);
  });
});
