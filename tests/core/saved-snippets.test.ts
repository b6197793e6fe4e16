/** GET/POST /saved_snippets, PATCH/DELETE /saved_snippets/{id}, the saved_snippets event and register section. */
import { type ApiSavedSnippet, doCreateSavedSnippet, doDeleteSavedSnippet, doEditSavedSnippet, getSavedSnippets } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, queued, recipientsOf, register } from './channel-helpers.js';
import { expectBadRequest, expectError, fakeClock, secondRealm, T0 } from './fixtures.js';

const snippets = async (m: ChannelWorld, user = m.member) =>
  (must(await getSavedSnippets(m.w.ctx, m.w.as(user), {}))).saved_snippets;
const NOT_FOUND = ['BAD_REQUEST', 'Saved snippet does not exist.', 404] as const;

describe('saved snippets', () => {
  it('creates (stripped, stamped by the server), lists oldest first, edits and deletes', async () => {
    const m = await channelWorld({ clock: fakeClock() });
    const { w, member } = m;
    const created = must(await doCreateSavedSnippet(w.ctx, w.as(member), { title: ' Hello ', content: '  Welcome to **us**.\n' }));
    expect(created).toEqual({ saved_snippet_id: expect.any(Number) });
    const id = (created).saved_snippet_id;
    const second = (must(await doCreateSavedSnippet(w.ctx, w.as(member), { title: 'Bye', content: 'See you' }))).saved_snippet_id;
    const date = Math.floor(T0 / 1000);
    expect(await snippets(m)).toEqual([
      { id, title: 'Hello', content: 'Welcome to **us**.', date_created: date },
      { id: second, title: 'Bye', content: 'See you', date_created: date },
    ]);
    must(await doEditSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: id, title: ' Hi ' }));
    must(await doEditSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: id, content: 'New text' }));
    must(await doDeleteSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: second }));
    expect(await snippets(m)).toEqual([{ id, title: 'Hi', content: 'New text', date_created: date }]);
    expect(await snippets(m, m.other)).toEqual([]);
  });

  it("another user's or another realm's snippet does not exist (404); nothing is sent", async () => {
    const m = await channelWorld();
    const { w, member } = m;
    const { saved_snippet_id: id } = must(await doCreateSavedSnippet(w.ctx, w.as(member), { title: 't', content: 'c' }));
    m.drain();
    expectError(await doEditSavedSnippet(w.ctx, w.as(m.other), { saved_snippet_id: id, title: 'x' }), ...NOT_FOUND);
    expectError(await doDeleteSavedSnippet(w.ctx, w.as(m.other), { saved_snippet_id: id }), ...NOT_FOUND);
    expectError(await doDeleteSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: id + 100 }), ...NOT_FOUND);
    expect(m.drain()).toEqual([]);
    const second = await secondRealm(w.ctx);
    m.drain();
    expectError(await doDeleteSavedSnippet(w.ctx, { realm: second.realm, user: second.owner }, { saved_snippet_id: id }), ...NOT_FOUND);
    expect(must(await getSavedSnippets(w.ctx, { realm: second.realm, user: second.owner }, {}))).toEqual({ saved_snippets: [] });
    expect(m.drain()).toEqual([]);
    expect(await snippets(m)).toHaveLength(1);
  });

  it('refuses bad input', async () => {
    const m = await channelWorld({ config: { timers: false, maxMessageLength: 20 } });
    const { w, member } = m;
    const create = (input: Record<string, unknown>) => doCreateSavedSnippet.fromTransport(w.ctx, w.as(member), input);
    expectBadRequest(await create({ title: '  ', content: 'c' }), 'title cannot be blank');
    expectBadRequest(await create({ title: 't', content: ' \n ' }), 'content cannot be blank');
    expectBadRequest(await create({ title: 'x'.repeat(61), content: 'c' }), 'title is too long (limit: 60 characters)');
    expectBadRequest(await create({ title: 't', content: 'x'.repeat(21) }), 'content is too long (limit: 20 characters)');
    expectBadRequest(await create({ title: 5, content: 'c' }), 'title is not a string');
    expectError(await create({ content: 'c' }), 'REQUEST_VARIABLE_MISSING', "Missing 'title' argument", 400, { var_name: 'title' });
    expectError(await create({ title: 't' }), 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", 400, { var_name: 'content' });
    const { saved_snippet_id: id } = must(await create({ title: 't', content: 'c' }));
    expectBadRequest(await doEditSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: id, title: '' }), 'title cannot be blank');
    expectBadRequest(await doEditSavedSnippet.fromTransport(w.ctx, w.as(member), { saved_snippet_id: 'abc', title: 'x' }), 'saved_snippet_id is not an integer');
    expectBadRequest(await doEditSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: id, content: 'x'.repeat(21) }), 'content is too long (limit: 20 characters)');
    expect(await snippets(m)).toEqual([expect.objectContaining({ title: 't', content: 'c' })]);
    for (const result of [
      await getSavedSnippets(w.ctx, w.as(null), {}),
      await doCreateSavedSnippet(w.ctx, w.as(null), { title: "t", content: "c" }),
      await doEditSavedSnippet(w.ctx, w.as(null), { saved_snippet_id: id, title: 'x' }),
      await doDeleteSavedSnippet(w.ctx, w.as(null), { saved_snippet_id: id }),
    ]) {
      expectError(result, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    }
    // An edit that changes nothing succeeds and announces nothing.
    m.drain();
    must(await doEditSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: id }));
    expect(m.drain()).toEqual([]);
  });

  it("sends saved_snippets events to the owner's queues only; snapshot plus events equals a fresh register", async () => {
    const m = await channelWorld();
    const { w, member } = m;
    must(await doCreateSavedSnippet(w.ctx, w.as(member), { title: 'first', content: 'one' }));
    const before = await register(w, member, { event_types: '["saved_snippets"]', fetch_event_types: '["saved_snippets"]' });
    expect(before.saved_snippets).toEqual([expect.objectContaining({ title: 'first', content: 'one' })]);
    m.drain();
    const { saved_snippet_id: id } = must(await doCreateSavedSnippet(w.ctx, w.as(member), { title: 'second', content: 'two' }));
    must(await doEditSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: id, content: 'deux' }));
    const firstId = (before.saved_snippets as { id: number }[])[0]!.id;
    must(await doDeleteSavedSnippet(w.ctx, w.as(member), { saved_snippet_id: firstId }));
    expect(recipientsOf(m.drain(), 'saved_snippets')).toEqual([[member.id], [member.id], [member.id]]);

    const events = (await queued(w, member, before.queue_id)).map(({ id: _id, ...e }) => e);
    const record = { id, title: 'second', content: 'two', date_created: expect.any(Number) };
    expect(events).toEqual([
      { type: 'saved_snippets', op: 'add', saved_snippet: record },
      { type: 'saved_snippets', op: 'update', saved_snippet: { ...record, content: 'deux' } },
      { type: 'saved_snippets', op: 'remove', saved_snippet_id: firstId },
    ]);
    let state: ApiSavedSnippet[] = before.saved_snippets;
    for (const e of events) {
      if (e.op === 'add') state = [...state, e.saved_snippet];
      if (e.op === 'update') state = state.map((s) => (s.id === e.saved_snippet.id ? e.saved_snippet : s));
      if (e.op === 'remove') state = state.filter((s) => s.id !== e.saved_snippet_id);
    }
    expect(state).toEqual((await register(w, member, { fetch_event_types: '["saved_snippets"]' })).saved_snippets);
  });
});
