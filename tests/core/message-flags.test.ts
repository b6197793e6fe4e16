/** POST /messages/flags (API.md 2.10, 4.16; FACTS.md 6.7; SHAPES.md 4.5, 6.6) in the core. */
import {
  doDeactivateUser,
  doRegister,
  doSendMessage,
  doSubscribe,
  doUnsubscribe,
  doUpdateMessageFlags,
  doUpdateSettings,
  doUpdateSubscriptionProperties,
  getMessages,
  type User,
} from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { queued } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';
import { type FlagWorld, flagEvents, flagWorld, HISTORICAL, READ, STARRED } from './flag-helpers.js';

let f: FlagWorld;
beforeEach(async () => {
  f = await flagWorld();
});

const flag = (user: User, messages: unknown, op: string, name: string) =>
  doUpdateMessageFlags.fromTransport(f.w.ctx, f.w.as(user), { messages: messages, op, flag: name });

describe('setting and clearing flags', () => {
  it('changes every settable flag, answering with the IDs that changed', async () => {
    const one = await f.send(f.owner, 'general', 'lunch');
    const two = await f.send(f.owner, 'general', 'lunch');
    for (const name of ['starred', 'collapsed', 'hide_link_previews', 'read']) {
      expect(must(await flag(f.bob, [one, two], 'add', name))).toEqual({ messages: [one, two] });
      // Already set: nothing changes, and the answer says so.
      expect(must(await flag(f.bob, [two, one], 'add', name))).toEqual({ messages: [] });
    }
    expect(await f.flagsOf(f.bob, [one])).toEqual([READ | STARRED | 4 | 256]);
    expect(must(await flag(f.bob, [one], 'remove', 'starred'))).toEqual({ messages: [one] });
    expect(must(await flag(f.bob, [one, one], 'remove', 'collapsed'))).toEqual({ messages: [one] });
    expect(await f.flagsOf(f.bob, [one, two])).toEqual([READ | 256, READ | STARRED | 4 | 256]);
    // Nobody else's copies moved.
    expect(await f.flagsOf(f.cat, [one, two])).toEqual([0, 0]);
  });

  it('marks unread with ignored_because_not_subscribed_channels, and only then', async () => {
    const id = await f.send(f.owner, 'general', 'lunch');
    expect(must(await flag(f.owner, [id], 'remove', 'read'))).toEqual({ messages: [id], ignored_because_not_subscribed_channels: [] });
    expect(must(await flag(f.owner, [id], 'remove', 'read'))).toEqual({ messages: [], ignored_because_not_subscribed_channels: [] });
    expect(must(await flag(f.owner, [id], 'add', 'read'))).toEqual({ messages: [id] });
    expect(must(await flag(f.owner, [], 'remove', 'starred'))).toEqual({ messages: [] });
  });

  it('accepts an empty list', async () => {
    expect(must(await flag(f.bob, [], 'add', 'read'))).toEqual({ messages: [] });
    expect(f.drain()).toEqual([]);
  });
});

describe('messages the user did not receive', () => {
  it('gives a public channel message a historical copy when the change shows', async () => {
    const id = await f.send(f.owner, 'lobby', 'old news');
    expect(await f.flagsOf(f.bob, [id])).toEqual([undefined]);
    // Already shown as read: no copy is needed and nothing changed.
    expect(must(await flag(f.bob, [id], 'add', 'read'))).toEqual({ messages: [] });
    expect(must(await flag(f.bob, [id], 'remove', 'starred'))).toEqual({ messages: [] });
    expect(await f.flagsOf(f.bob, [id])).toEqual([undefined]);

    expect(must(await flag(f.bob, [id], 'add', 'starred'))).toEqual({ messages: [id] });
    expect(await f.flagsOf(f.bob, [id])).toEqual([READ | HISTORICAL | STARRED]);
    const page = must(await getMessages(f.w.ctx, f.w.as(f.bob), { anchor: 'newest', num_before: 5, num_after: 0, narrow: [["channel","lobby"]] }));
    expect((page.messages).map((m) => [m.id, m.flags])).toEqual([[id, ['read', 'starred', 'historical']]]);
    expect(flagEvents(f.drain())).toEqual([
      { userIds: [f.bob.id], event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false } },
    ]);
  });

  it('skips channels the user is not subscribed to when marking unread, and lists them', async () => {
    const lobby = await f.send(f.owner, 'lobby', 'old news');
    const general = await f.send(f.owner, 'general', 'lunch');
    must(await flag(f.bob, [general], 'add', 'read'));
    f.drain();
    expect(must(await flag(f.bob, [lobby, general, lobby], 'remove', 'read'))).toEqual({
      messages: [general],
      ignored_because_not_subscribed_channels: [f.lobby],
    });
    expect(await f.flagsOf(f.bob, [lobby, general])).toEqual([undefined, 0]);
    expect(flagEvents(f.drain()).map((e) => e.event.messages)).toEqual([[general]]);
  });

  it('marks unread a message of a subscribed channel sent before subscribing (a historical, unread copy)', async () => {
    const before = await f.send(f.owner, 'lobby', 'before');
    must(await doSubscribe(f.w.ctx, f.w.as(f.bob), { subscriptions: [{"name":"lobby"}] }));
    f.drain();
    expect(must(await flag(f.bob, [before], 'remove', 'read'))).toEqual({ messages: [before], ignored_because_not_subscribed_channels: [] });
    expect(await f.flagsOf(f.bob, [before])).toEqual([HISTORICAL]);
    expect(flagEvents(f.drain())[0]!.event.message_details).toEqual({
      [before]: { type: 'stream', stream_id: f.lobby, topic: 'before', unmuted_stream_msg: true },
    });
  });

  it('keeps a copy of a channel the user has left: its messages stay theirs to flag', async () => {
    const id = await f.send(f.owner, 'secret', 'plans');
    must(await doUnsubscribe(f.w.ctx, f.w.as(f.cat), { subscriptions: ["secret"] }));
    expect(must(await flag(f.cat, [id], 'add', 'starred'))).toEqual({ messages: [id] });
    // Marking unread would break "unread only in subscribed channels".
    expect(must(await flag(f.cat, [id], 'remove', 'read'))).toEqual({ messages: [], ignored_because_not_subscribed_channels: [f.secret] });
  });
});

describe('errors', () => {
  it('refuses unknown flags, flags users may not set, and unknown operations, in that order', async () => {
    const id = await f.send(f.owner, 'general', 'lunch');
    expectBadRequest(await flag(f.bob, [id], 'add', 'x'), "Invalid flag: 'x'");
    expectBadRequest(await flag(f.bob, [id], 'bogus', 'x'), "Invalid flag: 'x'");
    // Internal flags of the reference are not API flags.
    expectBadRequest(await flag(f.bob, [id], 'add', 'is_private'), "Invalid flag: 'is_private'");
    expectBadRequest(await flag(f.bob, [id], 'add', 'active_mobile_push_notification'), "Invalid flag: 'active_mobile_push_notification'");
    for (const name of ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical']) {
      expectBadRequest(await flag(f.bob, [id], 'add', name), `Flag not editable: '${name}'`);
      expectBadRequest(await flag(f.bob, [id], 'bogus', name), `Flag not editable: '${name}'`);
    }
    expectBadRequest(await flag(f.bob, [id], 'bogus', 'read'), "Invalid message flag operation: 'bogus'");
    expectBadRequest(await flag(f.bob, [id], 'ADD', 'read'), "Invalid message flag operation: 'ADD'");
    expectBadRequest(await flag(f.bob, [id], 'add', 'Read'), "Invalid flag: 'Read'");
    expect(f.drain().filter((p) => p.event.type === 'update_message_flags')).toEqual([]);
  });

  it('refuses messages the user may not read, changing nothing and publishing nothing', async () => {
    const general = await f.send(f.owner, 'general', 'lunch');
    const secret = await f.send(f.owner, 'secret', 'plans');
    const lobby = await f.send(f.owner, 'lobby', 'news');
    const dm = await f.dm(f.owner, [f.cat]);
    const other = await secondRealm(f.w.ctx);
    const foreign = must(await doSendMessage(f.w.ctx, { realm: other.realm, user: other.owner }, { type: 'direct', to: `[${other.owner.id}]`, content: 'mine' }));
    f.drain();
    const cases: Array<[User, number]> = [
      [f.bob, secret], // a private channel without shared history he is not in
      [f.bob, dm], // a direct conversation he is not part of
      [f.bob, 99999], // no such message
      [f.bob, foreign.id], // another realm's message
      [f.guest, lobby], // guests read only channels they are subscribed to
    ];
    for (const [user, id] of cases) {
      for (const [op, name] of [['add', 'starred'], ['remove', 'read'], ['add', 'read']]) {
        expectBadRequest(await flag(user, [general, id], op!, name!), 'Invalid message(s)');
      }
    }
    expect(await f.flagsOf(f.bob, [general, secret, dm, lobby])).toEqual([0, undefined, undefined, undefined]);
    expect(await f.flagsOf(f.guest, [general, lobby])).toEqual([0, undefined]);
    expect(f.drain()).toEqual([]);
  });

  it('answers bad input with the reference texts', async () => {
    const call = (input: Record<string, string>) => doUpdateMessageFlags.fromTransport(f.w.ctx, f.w.as(f.bob), input);
    expectError(await call({ op: 'add', flag: 'read' }), 'REQUEST_VARIABLE_MISSING', "Missing 'messages' argument", 400, { var_name: 'messages' });
    expectError(await call({ messages: '[]', flag: 'read' }), 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument", 400, { var_name: 'op' });
    expectError(await call({ messages: '[]', op: 'add' }), 'REQUEST_VARIABLE_MISSING', "Missing 'flag' argument", 400, { var_name: 'flag' });
    expectBadRequest(await call({ messages: '[1,', op: 'add', flag: 'read' }), 'messages is not valid JSON');
    expectBadRequest(await call({ messages: '{"a":1}', op: 'add', flag: 'read' }), 'messages is not a list');
    expectBadRequest(await call({ messages: '5', op: 'add', flag: 'read' }), 'messages is not a list');
    expectBadRequest(await call({ messages: '[1,"2"]', op: 'add', flag: 'read' }), 'messages[1] is not an integer');
    expectBadRequest(await call({ messages: '[1.5]', op: 'add', flag: 'read' }), 'messages[0] is not an integer');
    expectBadRequest(await doUpdateMessageFlags.fromTransport(f.w.ctx, f.w.as(f.bob), { messages: [], op: 3, flag: 'read' }), 'op is not a string');
  });

  it('needs a logged-in, active user', async () => {
    expectError(await flag(null as unknown as User, [], 'add', 'read'), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    must(await doDeactivateUser(f.w.ctx, f.w.as(f.owner), { user_id: f.bob.id }));
    expectError(await flag(f.bob, [], 'add', 'read'), 'UNAUTHORIZED', 'Account is deactivated', 401);
  });
});

describe('update_message_flags events', () => {
  it('go to the acting user’s own queues only', async () => {
    const id = await f.send(f.owner, 'general', 'lunch');
    const bobQueue = must(await doRegister(f.w.ctx, f.w.as(f.bob), { event_types: ["update_message_flags"] })) as { queue_id: string };
    const catQueue = must(await doRegister(f.w.ctx, f.w.as(f.cat), {})) as { queue_id: string };
    f.drain();
    must(await flag(f.bob, [id], 'add', 'starred'));
    expect(flagEvents(f.drain()).map((e) => e.userIds)).toEqual([[f.bob.id]]);
    expect(await queued(f.w, f.bob, bobQueue.queue_id)).toEqual([
      { id: 0, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false },
    ]);
    expect(await queued(f.w, f.cat, catQueue.queue_id)).toEqual([]);
  });

  it('carry message_details when messages become unread', async () => {
    const mention = await f.send(f.owner, 'general', 'lunch', 'hi @**Bob Builder**');
    const wildcard = await f.send(f.owner, 'general', 'lunch', '@**all** hi');
    const plain = await f.send(f.owner, 'general', 'dinner');
    const direct = await f.dm(f.owner, [f.bob]);
    const group = await f.dm(f.cat, [f.bob, f.owner]);
    const self = await f.dm(f.bob, [f.bob]);
    const all = [mention, wildcard, plain, direct, group, self];
    must(await flag(f.bob, all, 'add', 'read'));
    f.drain();
    expect(must(await flag(f.bob, all, 'remove', 'read'))).toEqual({ messages: all, ignored_because_not_subscribed_channels: [] });
    const [event] = flagEvents(f.drain());
    expect(event).toEqual({
      userIds: [f.bob.id],
      event: {
        type: 'update_message_flags',
        op: 'remove',
        operation: 'remove',
        flag: 'read',
        messages: all,
        all: false,
        message_details: {
          [mention]: { type: 'stream', stream_id: f.general, topic: 'lunch', unmuted_stream_msg: true, mentioned: true },
          [wildcard]: { type: 'stream', stream_id: f.general, topic: 'lunch', unmuted_stream_msg: true, mentioned: true },
          [plain]: { type: 'stream', stream_id: f.general, topic: 'dinner', unmuted_stream_msg: true },
          [direct]: { type: 'private', user_ids: [f.owner.id] },
          [group]: { type: 'private', user_ids: [f.owner.id, f.cat.id].sort((a, b) => a - b) },
          [self]: { type: 'private', user_ids: [] },
        },
      },
    });
  });

  it('say unmuted_stream_msg false in a muted channel, where a wildcard is no mention', async () => {
    must(await doUpdateSubscriptionProperties(f.w.ctx, f.w.as(f.bob), { subscription_data: [{ stream_id: f.general, property: 'is_muted', value: true }] }));
    // Otherwise the mention would make Bob follow the topic, which then counts (unread-muted-topics.test.ts).
    must(await doUpdateSettings(f.w.ctx, f.w.as(f.bob), { automatically_follow_topics_where_mentioned: false }));
    const wildcard = await f.send(f.owner, 'general', 'lunch', '@**all** hi');
    const mention = await f.send(f.owner, 'general', 'lunch', 'hi @**Bob Builder**');
    must(await flag(f.bob, [wildcard, mention], 'add', 'read'));
    f.drain();
    must(await flag(f.bob, [wildcard, mention], 'remove', 'read'));
    expect(flagEvents(f.drain())[0]!.event.message_details).toEqual({
      [wildcard]: { type: 'stream', stream_id: f.general, topic: 'lunch', unmuted_stream_msg: false },
      [mention]: { type: 'stream', stream_id: f.general, topic: 'lunch', unmuted_stream_msg: false, mentioned: true },
    });
  });

  it('show the empty topic as each queue expects it', async () => {
    const id = await f.send(f.owner, 'general', '');
    must(await flag(f.bob, [id], 'add', 'read'));
    const plain = must(await doRegister(f.w.ctx, f.w.as(f.bob), { event_types: ["update_message_flags"] })) as { queue_id: string };
    const capable = must(
      await doRegister(f.w.ctx, f.w.as(f.bob), { event_types: ["update_message_flags"], client_capabilities: {"empty_topic_name":true} }),
    ) as { queue_id: string };
    must(await flag(f.bob, [id], 'remove', 'read'));
    const [a] = await queued(f.w, f.bob, plain.queue_id);
    const [b] = await queued(f.w, f.bob, capable.queue_id);
    expect(a!.message_details).toEqual({ [id]: { type: 'stream', stream_id: f.general, topic: 'general chat', unmuted_stream_msg: true } });
    expect(b!.message_details).toEqual({ [id]: { type: 'stream', stream_id: f.general, topic: '', unmuted_stream_msg: true } });
  });

  it('are not sent when nothing changed', async () => {
    const id = await f.send(f.owner, 'general', 'lunch');
    must(await flag(f.bob, [id], 'add', 'starred'));
    f.drain();
    must(await flag(f.bob, [id], 'add', 'starred'));
    must(await flag(f.bob, [id], 'remove', 'collapsed'));
    expect(f.drain()).toEqual([]);
  });
});
