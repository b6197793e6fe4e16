/** POST /mark_all_as_read, /mark_stream_as_read, /mark_topic_as_read (API.md 4.13) in the core. */
import { type Clock, doArchiveStream, doMarkAllAsRead, doMarkStreamAsRead, doMarkTopicAsRead, doSubscribe, doUnsubscribe } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { type FlagWorld, flagEvents, flagWorld, READ } from './flag-helpers.js';

let f: FlagWorld;
beforeEach(async () => {
  f = await flagWorld();
});

const readEvent = (messages: number[]) => ({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all: false });

describe('POST /mark_all_as_read', () => {
  it('marks every unread message read and answers complete: true', async () => {
    const general = await f.send(f.owner, 'general', 'lunch');
    const secret = await f.send(f.owner, 'secret', 'plans');
    const dm = await f.dm(f.owner, [f.cat]);
    f.drain();
    expect(must(await doMarkAllAsRead(f.w.ctx, f.w.as(f.cat), {}))).toEqual({ complete: true });
    expect(await f.flagsOf(f.cat, [general, secret, dm])).toEqual([READ, READ, READ]);
    expect(await f.flagsOf(f.bob, [general])).toEqual([0]);
    expect(flagEvents(f.drain())).toEqual([{ userIds: [f.cat.id], event: readEvent([general, secret, dm]) }]);
    // Nothing left: no event.
    expect(must(await doMarkAllAsRead(f.w.ctx, f.w.as(f.cat), {}))).toEqual({ complete: true });
    expect(f.drain()).toEqual([]);
  });

  it('works in batches, newest first, and stops with complete: false when its time is up', async () => {
    const made = await f.w.ctx.storage.transaction(async (tx) => {
      const ids: number[] = [];
      for (let i = 0; i < 4500; i++) {
        const message = await tx.messages.insert(
          {
            realmId: f.w.realm.id, senderId: f.owner.id, type: 'stream', streamId: f.general, topic: 'bulk', dmKey: null, content: 'x',
            renderedContent: '<p>x</p>', dateSent: 0, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [],
            hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
          },
          [{ userId: f.bob.id, flags: 0 }],
        );
        ids.push(message.id);
      }
      return { isOk: () => true, isErr: () => false, value: ids } as never;
    });
    const ids = (made as { value: number[] }).value;
    // A clock that moves 30 s each time it is read: the second batch starts past the 50 s budget.
    let t = 0;
    const slowClock: Clock = { now: () => (t += 30_000) };
    const ctx = { ...f.w.ctx, clock: slowClock };
    expect(must(await doMarkAllAsRead(ctx, f.w.as(f.bob), {}))).toEqual({ complete: false });
    const first = flagEvents(f.drain());
    expect(first.map((e) => e.event.messages)).toEqual([ids.slice(2500)]);
    expect(must(await doMarkAllAsRead(f.w.ctx, f.w.as(f.bob), {}))).toEqual({ complete: true });
    expect(flagEvents(f.drain()).map((e) => e.event.messages)).toEqual([ids.slice(500, 2500), ids.slice(0, 500)]);
    expect((await f.flagsOf(f.bob, ids)).every((flags) => flags === READ)).toBe(true);
  });

  it('needs a logged-in user', async () => {
    expectError(await doMarkAllAsRead(f.w.ctx, f.w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('POST /mark_stream_as_read', () => {
  it('marks the channel’s unread messages read', async () => {
    const general = await f.send(f.owner, 'general', 'lunch');
    const other = await f.send(f.owner, 'secret', 'plans');
    const dm = await f.dm(f.owner, [f.cat]);
    f.drain();
    expect(must(await doMarkStreamAsRead(f.w.ctx, f.w.as(f.cat), { stream_id: f.general }))).toEqual({});
    expect(await f.flagsOf(f.cat, [general, other, dm])).toEqual([READ, 0, 0]);
    expect(flagEvents(f.drain())).toEqual([{ userIds: [f.cat.id], event: readEvent([general]) }]);
    expect(must(await doMarkStreamAsRead(f.w.ctx, f.w.as(f.cat), { stream_id: f.general }))).toEqual({});
    expect(f.drain()).toEqual([]);
  });

  it('reaches archived channels too', async () => {
    const id = await f.send(f.owner, 'general', 'lunch');
    must(await doArchiveStream(f.w.ctx, f.w.as(f.owner), { stream_id: f.general }));
    expect(must(await doMarkStreamAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general }))).toEqual({});
    expect(await f.flagsOf(f.bob, [id])).toEqual([READ]);
  });

  it('refuses channels the user cannot reach as unknown ones, and bad input', async () => {
    const secret = await f.send(f.owner, 'secret', 'plans');
    const other = await secondRealm(f.w.ctx);
    must(await doSubscribe(f.w.ctx, { realm: other.realm, user: other.owner }, { subscriptions: [{"name":"theirs"}] }));
    const foreign = (await f.w.ctx.storage.read((tx) => tx.streams.byName(other.realm.id, 'theirs')))!.id;
    f.drain();
    for (const streamId of [f.secret, 99999, foreign]) {
      expectBadRequest(await doMarkStreamAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: streamId }), 'Invalid channel ID');
    }
    expect(await f.flagsOf(f.owner, [secret])).toEqual([READ]);
    expectError(await doMarkStreamAsRead.fromTransport(f.w.ctx, f.w.as(f.bob), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", 400, { var_name: 'stream_id' });
    expectBadRequest(await doMarkStreamAsRead.fromTransport(f.w.ctx, f.w.as(f.bob), { stream_id: 'x' }), 'stream_id is not valid JSON');
    expectBadRequest(await doMarkStreamAsRead.fromTransport(f.w.ctx, f.w.as(f.bob), { stream_id: '"1"' }), 'stream_id is not an integer');
    expectError(await doMarkStreamAsRead(f.w.ctx, f.w.as(null), { stream_id: 1 }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(f.drain()).toEqual([]);
  });

  it('lets a former subscriber clear the copies they kept', async () => {
    const id = await f.send(f.owner, 'secret', 'plans');
    must(await doUnsubscribe(f.w.ctx, f.w.as(f.cat), { subscriptions: ["secret"] }));
    // The channel is private: once out, it is unknown to them.
    expectBadRequest(await doMarkStreamAsRead(f.w.ctx, f.w.as(f.cat), { stream_id: f.secret }), 'Invalid channel ID');
    expect(await f.flagsOf(f.cat, [id])).toEqual([0]);
  });
});

describe('POST /mark_topic_as_read', () => {
  it('marks the topic’s unread messages read, matching topic names case-insensitively', async () => {
    const lunch = await f.send(f.owner, 'general', 'Lunch');
    const lunch2 = await f.send(f.owner, 'general', 'lunch');
    const dinner = await f.send(f.owner, 'general', 'dinner');
    f.drain();
    expect(must(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general, topic_name: 'LUNCH' }))).toEqual({});
    expect(await f.flagsOf(f.bob, [lunch, lunch2, dinner])).toEqual([READ, READ, 0]);
    expect(flagEvents(f.drain())).toEqual([{ userIds: [f.bob.id], event: readEvent([lunch, lunch2]) }]);
  });

  it('reads the empty topic’s display name and "(no topic)" as the empty topic', async () => {
    const empty = await f.send(f.owner, 'general', '');
    const named = await f.send(f.owner, 'general', 'named');
    expect(must(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general, topic_name: 'general chat' }))).toEqual({});
    expect(must(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.cat), { stream_id: f.general, topic_name: '(no topic)' }))).toEqual({});
    expect(must(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.guest), { stream_id: f.general, topic_name: '' }))).toEqual({});
    for (const user of [f.bob, f.cat, f.guest]) expect(await f.flagsOf(user, [empty, named])).toEqual([READ, 0]);
  });

  it('refuses a topic the user has no message in, and unreachable channels', async () => {
    await f.send(f.owner, 'lobby', 'news');
    await f.send(f.owner, 'secret', 'plans');
    f.drain();
    expectBadRequest(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general, topic_name: 'nothing' }), "No such topic 'nothing'");
    // Public history he never received: no copy, so nothing of his is unread there.
    expectBadRequest(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.lobby, topic_name: 'news' }), "No such topic 'news'");
    expectBadRequest(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.secret, topic_name: 'plans' }), 'Invalid channel ID');
    expectBadRequest(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: 99999, topic_name: 'plans' }), 'Invalid channel ID');
    expectError(await doMarkTopicAsRead.fromTransport(f.w.ctx, f.w.as(f.bob), { stream_id: f.general }), 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument", 400, {
      var_name: 'topic_name',
    });
    expectError(await doMarkTopicAsRead.fromTransport(f.w.ctx, f.w.as(f.bob), { topic_name: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", 400, { var_name: 'stream_id' });
    expectBadRequest(await doMarkTopicAsRead(f.w.ctx, f.w.as(f.bob), { stream_id: f.general, topic_name: 'a\0b' }), 'Topic must not contain null bytes');
    expect(f.drain()).toEqual([]);
  });
});
