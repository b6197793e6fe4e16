/** GET /messages: anchors (FL 445 date), include_anchor, found_* flags, the 5000 limit, message_ids (FL 300). */
import { doUpdateMessageFlags, getMessages } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { fakeClock, T0, expectBadRequest, expectError } from './fixtures.js';
import { messageWorld } from './message-helpers.js';

type Page = { anchor: number; found_anchor: boolean; found_oldest: boolean; found_newest: boolean; history_limited: boolean; messages: Array<{ id: number }> };

describe('GET /messages anchors', () => {
  const setup = async () => {
    const clock = fakeClock();
    const m = await messageWorld({ clock });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await m.post(m.admin, `m${i}`));
      clock.advance(86_400_000); // one a day
    }
    const page = async (params: Record<string, unknown>) => must(await getMessages(m.w.ctx, m.w.as(m.member), params)) as unknown as Page;
    const idsOf = (p: Page) => p.messages.map((x) => x.id);
    return { m, ids, page, idsOf };
  };

  it('newest, oldest, an ID, include_anchor and the found_* flags', async () => {
    const { ids, page, idsOf } = await setup();
    const newest = await page({ anchor: 'newest', num_before: 2, num_after: 0 });
    expect(idsOf(newest)).toEqual(ids.slice(3));
    expect(newest).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: true, history_limited: false });
    const oldest = await page({ anchor: 'oldest', num_before: 0, num_after: 2 });
    expect(idsOf(oldest)).toEqual(ids.slice(0, 2));
    expect(oldest).toMatchObject({ anchor: 0, found_anchor: false, found_oldest: true, found_newest: false });
    const around = await page({ anchor: String(ids[2]), num_before: 1, num_after: 1 });
    expect(idsOf(around)).toEqual(ids.slice(1, 4));
    expect(around).toMatchObject({ anchor: ids[2], found_anchor: true, found_oldest: false, found_newest: false });
    const without = await page({ anchor: String(ids[2]), num_before: 1, num_after: 1, include_anchor: 'false' });
    expect(idsOf(without)).toEqual([ids[1], ids[3]]);
    expect(without.found_anchor).toBe(false);
    // An anchor between messages, and beyond both ends.
    expect(idsOf(await page({ anchor: String(ids[4]! + 100), num_before: 1, num_after: 1 }))).toEqual([ids[4]]);
    expect((await page({ anchor: '-5', num_before: 0, num_after: 1 })).anchor).toBe(0);
    const all = await page({ anchor: 'oldest', num_before: 0, num_after: 100 });
    expect(all).toMatchObject({ found_oldest: true, found_newest: true });
  });

  it('first_unread (and use_first_unread_anchor) is the oldest unread match, else newest', async () => {
    const { m, ids, page, idsOf } = await setup();
    must(await doUpdateMessageFlags(m.w.ctx, m.w.as(m.member), { messages: ids.slice(0, 2), op: 'add', flag: 'read' }));
    const first = await page({ anchor: 'first_unread', num_before: 0, num_after: 0 });
    expect(first).toMatchObject({ anchor: ids[2], found_anchor: true });
    expect(idsOf(first)).toEqual([ids[2]]);
    expect((await page({ use_first_unread_anchor: 'true', num_before: 0, num_after: 0 })).anchor).toBe(ids[2]);
    must(await doUpdateMessageFlags(m.w.ctx, m.w.as(m.member), { messages: ids, op: 'add', flag: 'read' }));
    const none = await page({ anchor: 'first_unread', num_before: 1, num_after: 0 });
    expect(idsOf(none)).toEqual([ids[4]]);
    expect(none.found_newest).toBe(true);
  });

  it('date (FL 445): the first message at or after anchor_date, else newest', async () => {
    const { ids, page, idsOf } = await setup();
    const day = (n: number) => new Date(T0 + n * 86_400_000).toISOString().slice(0, 10);
    // Messages are sent at 03:04 each day: midnight of day 2 finds the message of day 2.
    expect(idsOf(await page({ anchor: 'date', anchor_date: day(2), num_before: 0, num_after: 0 }))).toEqual([ids[2]]);
    expect(idsOf(await page({ anchor: 'date', anchor_date: new Date(T0 + 86_400_000 + 1000).toISOString(), num_before: 0, num_after: 1 }))).toEqual([ids[2], ids[3]]);
    expect((await page({ anchor: 'date', anchor_date: day(30), num_before: 1, num_after: 0 })).messages.map((x) => x.id)).toEqual([ids[4]]);
    const m = await setup();
    expectError(await getMessages(m.m.w.ctx, m.m.w.as(m.m.member), { anchor: 'date', num_before: 0, num_after: 0 }), 'REQUEST_VARIABLE_MISSING', "Missing 'anchor_date' argument", 400, { var_name: 'anchor_date' });
    expectBadRequest(await getMessages(m.m.w.ctx, m.m.w.as(m.m.member), { anchor: 'date', anchor_date: 'yesterday', num_before: 0, num_after: 0 }), 'Invalid anchor_date');
  });

  it('validates the window and refuses more than 5000 messages', async () => {
    const { m } = await setup();
    const get = (params: Record<string, unknown>) => getMessages(m.w.ctx, m.w.as(m.member), params);
    expectBadRequest(await get({ anchor: 'newest', num_before: 2500, num_after: 2501 }), 'Too many messages requested (maximum 5000).');
    expect((await get({ anchor: 'newest', num_before: 2500, num_after: 2500 })).isOk()).toBe(true);
    expectError(await get({ anchor: 'newest', num_after: 0 }), 'REQUEST_VARIABLE_MISSING', "Missing 'num_before' argument", 400, { var_name: 'num_before' });
    expectError(await get({ anchor: 'newest', num_before: 0 }), 'REQUEST_VARIABLE_MISSING', "Missing 'num_after' argument", 400, { var_name: 'num_after' });
    expectBadRequest(await get({ anchor: 'newest', num_before: '-1', num_after: 0 }), 'num_before is too small');
    expectBadRequest(await get({ anchor: 'newest', num_before: 'x', num_after: 0 }), 'num_before is not valid JSON');
    expectBadRequest(await get({ anchor: 'middle', num_before: 0, num_after: 0 }), 'Invalid anchor');
    expectBadRequest(await get({ anchor: 'newest', num_before: 0, num_after: 0, include_anchor: 'maybe' }), 'include_anchor is not valid JSON');
    expectError(await getMessages(m.w.ctx, m.w.as(null), { anchor: 'newest', num_before: 0, num_after: 0 }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  it('message_ids (FL 300): only readable ones, no anchor fields, and not with the window parameters', async () => {
    const { m, ids } = await setup();
    const secret = await m.post(m.admin, 'hidden', 't', 'secret');
    const get = (user: typeof m.member, params: Record<string, unknown>) => getMessages(m.w.ctx, m.w.as(user), params);
    const result = must(await get(m.other, { message_ids: JSON.stringify([ids[1], secret, 9999, ids[0]]) }));
    expect(Object.keys(result).sort()).toEqual(['history_limited', 'messages']);
    expect(result.messages.map((x) => x.id)).toEqual([ids[0], ids[1]]);
    for (const [name, value] of [['anchor', 'newest'], ['num_before', '0'], ['num_after', '0'], ['include_anchor', 'true'], ['use_first_unread_anchor', 'false']]) {
      expectError(await get(m.member, { message_ids: '[1]', [name!]: value }), 'BAD_REQUEST', `Unsupported parameter combination: message_ids, ${name}`, 400, {
        parameters: `message_ids, ${name}`,
      });
    }
    expectError(
      await get(m.member, { message_ids: '[1]', anchor: 'newest', num_after: 1 }),
      'BAD_REQUEST',
      'Unsupported parameter combination: message_ids, anchor, num_after',
      400,
      { parameters: 'message_ids, anchor, num_after' },
    );
    expectBadRequest(await get(m.member, { message_ids: '["a"]' }), 'message_ids[0] is not an integer');
  });
});
