/** POST /messages/flags/narrow (SHAPES.md 6.7, FL 155) in the core. */
import { doUpdateMessageFlagsForNarrow, type User } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, expectError } from './fixtures.js';
import { type FlagWorld, flagEvents, flagWorld, HISTORICAL, READ, STARRED } from './flag-helpers.js';

let f: FlagWorld;
let ids: number[];
beforeEach(async () => {
  f = await flagWorld();
  ids = [];
  for (let i = 0; i < 6; i++) ids.push(await f.send(f.owner, 'general', i < 3 ? 'lunch' : 'dinner'));
  f.drain();
});

type Input = Record<string, string>;
const narrowFlags = (user: User, input: Input) =>
  doUpdateMessageFlagsForNarrow(f.w.ctx, f.w.as(user), { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [], op: 'add', flag: 'read', ...input });

describe('updating a window of a narrow', () => {
  it('pages forward through a narrow from the oldest message', async () => {
    const narrow = '[{"operator":"channel","operand":"general"}]';
    expect(must(await narrowFlags(f.bob, { narrow, num_after: '2' }))).toEqual({
      processed_count: 2,
      updated_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[1],
      found_oldest: true,
      found_newest: false,
    });
    expect(must(await narrowFlags(f.bob, { narrow, anchor: String(ids[1]), include_anchor: 'false', num_after: '10' }))).toEqual({
      processed_count: 4,
      updated_count: 4,
      first_processed_id: ids[2],
      last_processed_id: ids[5],
      found_oldest: false,
      found_newest: true,
    });
    expect(await f.flagsOf(f.bob, ids)).toEqual(ids.map(() => READ));
    expect(flagEvents(f.drain())).toEqual([
      { userIds: [f.bob.id], event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: ids.slice(0, 2), all: false } },
      { userIds: [f.bob.id], event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: ids.slice(2), all: false } },
    ]);
  });

  it('counts processed and updated messages apart', async () => {
    must(await narrowFlags(f.bob, { narrow: '[["topic","lunch"]]', flag: 'starred' }));
    expect(must(await narrowFlags(f.bob, { anchor: 'newest', num_before: '100', num_after: '0', flag: 'starred' }))).toEqual({
      processed_count: 6,
      updated_count: 3,
      first_processed_id: ids[0],
      last_processed_id: ids[5],
      found_oldest: true,
      found_newest: true,
    });
    expect(flagEvents(f.drain()).map((e) => e.event.messages)).toEqual([ids.slice(0, 3), ids.slice(3)]);
  });

  it('anchors at newest, first_unread and message IDs', async () => {
    // "newest" is past every message: num_before counts from the newest one itself.
    expect(must(await narrowFlags(f.bob, { anchor: 'newest', num_before: '1', num_after: '0' }))).toMatchObject({
      processed_count: 1,
      first_processed_id: ids[5],
      last_processed_id: ids[5],
      found_oldest: false,
      found_newest: true,
    });
    must(await narrowFlags(f.bob, { anchor: String(ids[0]), num_after: '0' }));
    // The first unread is now ids[1].
    expect(must(await narrowFlags(f.bob, { anchor: 'first_unread', num_after: '0' }))).toMatchObject({
      processed_count: 1,
      updated_count: 1,
      first_processed_id: ids[1],
      last_processed_id: ids[1],
    });
    // Excluding the anchor at one end of the range is allowed.
    expect(must(await narrowFlags(f.bob, { anchor: String(ids[3]), include_anchor: 'false', num_before: '1', num_after: '0' }))).toMatchObject({
      processed_count: 1,
      first_processed_id: ids[2],
    });
  });

  it('reports an empty range with null IDs', async () => {
    expect(must(await narrowFlags(f.bob, { narrow: '[["topic","nothing here"]]' }))).toEqual({
      processed_count: 0,
      updated_count: 0,
      first_processed_id: null,
      last_processed_id: null,
      found_oldest: true,
      found_newest: true,
    });
    expect(must(await narrowFlags(f.bob, { narrow: '[["is","starred"]]', op: 'remove' }))).toMatchObject({ processed_count: 0, ignored_because_not_subscribed_channels: [] });
    expect(f.drain()).toEqual([]);
  });

  it('marks unread in subscribed channels only, listing the others', async () => {
    const lobby = await f.send(f.owner, 'lobby', 'news');
    must(await narrowFlags(f.bob, {}));
    f.drain();
    expect(must(await narrowFlags(f.bob, { narrow: '[["channels","public"]]', op: 'remove' }))).toEqual({
      processed_count: 7,
      updated_count: 6,
      first_processed_id: ids[0],
      last_processed_id: lobby,
      found_oldest: true,
      found_newest: true,
      ignored_because_not_subscribed_channels: [f.lobby],
    });
    expect(await f.flagsOf(f.bob, [...ids, lobby])).toEqual([...ids.map(() => 0), undefined]);
    expect(flagEvents(f.drain())[0]!.event.messages).toEqual(ids);
  });

  it('creates historical copies for public history the user did not receive', async () => {
    const lobby = await f.send(f.owner, 'lobby', 'news');
    expect(must(await narrowFlags(f.bob, { narrow: '[["channel","lobby"]]', flag: 'starred' }))).toMatchObject({ processed_count: 1, updated_count: 1 });
    expect(await f.flagsOf(f.bob, [lobby])).toEqual([READ | HISTORICAL | STARRED]);
  });

  it('never reaches messages outside what the user may read', async () => {
    const secret = await f.send(f.owner, 'secret', 'plans');
    const dm = await f.dm(f.owner, [f.cat]);
    expect(must(await narrowFlags(f.bob, { flag: 'starred' }))).toMatchObject({ processed_count: 6, last_processed_id: ids[5] });
    expect(must(await narrowFlags(f.guest, { narrow: '[["channels","public"]]', flag: 'starred' }))).toMatchObject({ processed_count: 6 });
    expect(await f.flagsOf(f.bob, [secret, dm])).toEqual([undefined, undefined]);
    // A private channel he cannot see is an unknown name.
    expectError(await narrowFlags(f.bob, { narrow: '[["channel","secret"]]' }), 'BAD_NARROW', 'Invalid narrow operator: unknown channel');
    expectError(await narrowFlags(f.bob, { narrow: `[["channel",${f.secret}]]` }), 'BAD_NARROW', 'Invalid narrow operator: unknown channel');
  });

  it('caps the window at 5000 messages', async () => {
    // Inserted directly: sending 5000 messages through the API would only slow the test.
    const bulk = await f.w.ctx.storage.transaction(async (tx) => {
      const made: number[] = [];
      for (let i = 0; i < 5001; i++) {
        const message = await tx.messages.insert(
          {
            realmId: f.w.realm.id, senderId: f.owner.id, type: 'stream', streamId: f.general, topic: 'bulk', dmKey: null, content: 'x',
            renderedContent: '<p>x</p>', dateSent: 0, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [],
            hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
          },
          [{ userId: f.bob.id, flags: 0 }],
        );
        made.push(message.id);
      }
      return { isOk: () => true, isErr: () => false, value: made } as never;
    });
    const made = (bulk as { value: number[] }).value;
    const result = must(await narrowFlags(f.bob, { narrow: '[["topic","bulk"]]', num_after: '100000' }));
    expect(result).toMatchObject({ processed_count: 5000, updated_count: 5000, first_processed_id: made[0], last_processed_id: made[4999], found_newest: false });
    // Both sides asked: each keeps at least half.
    const both = must(await narrowFlags(f.bob, { anchor: String(made[2500]), narrow: '[["topic","bulk"]]', num_before: '100000', num_after: '100000', op: 'remove' }));
    expect(both).toMatchObject({ processed_count: 5001 });
  });
});

describe('errors', () => {
  it('refuses excluding the anchor from the middle of the range', async () => {
    expectBadRequest(await narrowFlags(f.bob, { anchor: String(ids[2]), include_anchor: 'false', num_before: '1', num_after: '1' }), 'The anchor can only be excluded at an end of the range');
  });

  it('checks flag and op like POST /messages/flags', async () => {
    expectBadRequest(await narrowFlags(f.bob, { flag: 'x' }), "Invalid flag: 'x'");
    expectBadRequest(await narrowFlags(f.bob, { flag: 'mentioned' }), "Flag not editable: 'mentioned'");
    expectBadRequest(await narrowFlags(f.bob, { op: 'bogus' }), "Invalid message flag operation: 'bogus'");
    expect(f.drain()).toEqual([]);
    expect(await f.flagsOf(f.bob, ids)).toEqual(ids.map(() => 0));
  });

  it('answers bad input with the reference texts', async () => {
    const call = (input: Input) => doUpdateMessageFlagsForNarrow.fromTransport(f.w.ctx, f.w.as(f.bob), input);
    const full: Input = { anchor: 'oldest', num_before: '0', num_after: '1', narrow: '[]', op: 'add', flag: 'read' };
    for (const name of Object.keys(full)) {
      const { [name]: _, ...rest } = full;
      expectError(await call(rest), 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });
    }
    expectBadRequest(await call({ ...full, anchor: 'bogus' }), 'Invalid anchor');
    expectBadRequest(await call({ ...full, num_before: '-1' }), 'num_before is too small');
    expectBadRequest(await call({ ...full, num_after: 'many' }), 'num_after is not valid JSON');
    expectBadRequest(await call({ ...full, num_after: '"1"' }), 'num_after is not an integer');
    expectBadRequest(await call({ ...full, include_anchor: 'yes' }), 'include_anchor is not valid JSON');
    expectBadRequest(await call({ ...full, narrow: '[["channel"' }), 'narrow is not valid JSON');
    expectError(await call({ ...full, narrow: '[["bogus","x"]]' }), 'BAD_NARROW', 'Invalid narrow operator: unknown operator');
    expectError(await doUpdateMessageFlagsForNarrow.fromTransport(f.w.ctx, f.w.as(null), full), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(f.drain()).toEqual([]);
  });
});
