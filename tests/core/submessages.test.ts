/** POST /submessage: who may attach one, the widget checks, storage and the `submessage` event. */
import { doSendSubmessage } from '@teamchat/core';
import { ok } from 'neverthrow';
import { otherRealmPoll } from './submessage-helpers.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channel, channelWorld, ids, recipientsOf, setStream, subscribe } from './channel-helpers.js';
import { send } from './reaction-helpers.js';
import { failure, submessagesOf, submit } from './submessage-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
  await subscribe(c.w, c.w.owner, ['general'], { principals: [c.w.owner.id, c.member.id, c.other.id] });
});

const vote = (key = 'canned,0', v = 1) => ({ type: 'vote', key, vote: v });

describe('a poll', () => {
  let poll: number;
  beforeEach(async () => {
    poll = await send(c.w, c.member, 'general', '/poll Lunch?\nPizza\nSoup');
    c.drain();
  });

  it('takes votes and options from any reader, stored and shown in ID order after the widget', async () => {
    expect(must(await submit(c.w, c.other, poll, vote()))).toEqual({});
    must(await submit(c.w, c.w.owner, poll, { type: 'new_option', option: 'Salad', idx: 1 }));
    must(await submit(c.w, c.member, poll, { type: 'question', question: 'Dinner?' }));
    const list = await submessagesOf(c.w, c.other, poll);
    expect(list.map((s) => [s.sender_id, s.msg_type, JSON.parse(s.content).type ?? 'widget'])).toEqual([
      [c.member.id, 'widget', 'widget'],
      [c.other.id, 'widget', 'vote'],
      [c.w.owner.id, 'widget', 'new_option'],
      [c.member.id, 'widget', 'question'],
    ]);
    const submessageIds = list.map((s) => s.id);
    expect([...submessageIds].sort((a, b) => a - b)).toEqual(submessageIds);
    // The content is stored as sent, byte for byte.
    expect(list[1]).toEqual({ id: submessageIds[1], message_id: poll, sender_id: c.other.id, msg_type: 'widget', content: JSON.stringify(vote()) });
  });

  it('announces each to everyone who can read the message, after commit, with the reference’s keys', async () => {
    must(await submit(c.w, c.other, poll, vote('canned,1', -1)));
    const published = c.drain().filter((p) => p.event.type === 'submessage');
    expect(published).toHaveLength(1);
    const stored = (await submessagesOf(c.w, c.other, poll)).at(-1)!;
    expect(published[0]!.event).toEqual({
      type: 'submessage',
      msg_type: 'widget',
      message_id: poll,
      submessage_id: stored.id,
      sender_id: c.other.id,
      content: JSON.stringify(vote('canned,1', -1)),
    });
    // Subscribers of the public channel: the owner, the member, the other. Not the admin (not subscribed).
    expect(recipientsOf(published, 'submessage')).toEqual([ids(c.w.owner, c.member, c.other)]);
  });

  it('checks votes, options and questions as the reference does', async () => {
    const cases: Array<[unknown, string]> = [
      [[1], 'poll data is not a dict'],
      [{ key: 'x' }, 'type key is missing from poll data'],
      [{ type: 5 }, 'poll data["type"] is not a string'],
      [{ type: 'bogus' }, 'Unknown type for poll data: bogus'],
      [{ type: 'vote', vote: 1 }, 'key key is missing from poll data'],
      [{ type: 'vote', key: 7, vote: 1 }, 'poll data["key"] is not a string'],
      [{ type: 'vote', key: 'k', vote: 2 }, 'Invalid poll data["vote"]'],
      [{ type: 'vote', key: 'k', vote: true }, 'poll data["vote"] is not an integer'],
      [{ type: 'vote', key: 'k', vote: 1, extra: 1 }, 'Unexpected arguments: extra'],
      [{ type: 'new_option', option: 'x', idx: 1001 }, 'poll data["idx"] is too large'],
      [{ type: 'new_option', option: 'x', idx: -1 }, 'poll data["idx"] is too small'],
      [{ type: 'new_option', option: ['x'], idx: 1 }, 'poll data["option"] is not a string'],
      [{ type: 'question', question: 'Mine now?' }, "You can't edit a question unless you are the author."],
    ];
    for (const [data, message] of cases) expect(failure(await submit(c.w, c.other, poll, data))).toBe(message);
    expect(failure(await submit(c.w, c.other, poll, '{"type": "vote"'))).toBe('Invalid json for submessage');
    // Nothing was stored or announced by the refusals.
    expect(await submessagesOf(c.w, c.other, poll)).toHaveLength(1);
    expect(recipientsOf(c.drain(), 'submessage')).toEqual([]);
  });
});

describe('a to-do list', () => {
  it('takes tasks and strikes from readers; only its author renames it', async () => {
    const todo = await send(c.w, c.member, 'general', '/todo Chores\nDishes');
    must(await submit(c.w, c.other, todo, { type: 'new_task', key: 1, task: 'Laundry', desc: '', completed: false }));
    must(await submit(c.w, c.other, todo, { type: 'strike', key: '0,canned' }));
    must(await submit(c.w, c.member, todo, { type: 'new_task_list_title', title: 'Weekend' }));
    expect(failure(await submit(c.w, c.other, todo, { type: 'new_task_list_title', title: 'Mine' }))).toBe(
      "You can't edit the task list title unless you are the author.",
    );
    expect(failure(await submit(c.w, c.other, todo, { type: 'new_task', key: 1, task: 'x', desc: '', completed: 'no' }))).toBe(
      'todo data["completed"] is not a boolean',
    );
    expect(failure(await submit(c.w, c.other, todo, { type: 'strike', key: 3 }))).toBe('todo data["key"] is not a string');
    expect(failure(await submit(c.w, c.other, todo, { type: 'vote', key: 'k', vote: 1 }))).toBe('Unknown type for todo data: vote');
    expect(await submessagesOf(c.w, c.other, todo)).toHaveLength(4);
  });
});

describe('who may attach submessages', () => {
  it('the first one only the message’s sender; then any reader, with any JSON outside polls and to-do lists', async () => {
    const plain = await send(c.w, c.member, 'general', 'not a widget yet');
    expect(failure(await submit(c.w, c.other, plain, { anything: true }))).toBe('You cannot attach a submessage to this message.');
    must(await submit(c.w, c.member, plain, { widget_type: 'zform', extra_data: {} }));
    must(await submit(c.w, c.other, plain, { free: ['form'] }));
    must(await submit(c.w, c.other, plain, 42, 'other_type'));
    expect((await submessagesOf(c.w, c.other, plain)).map((s) => s.msg_type)).toEqual(['widget', 'widget', 'other_type']);
  });

  it('unknown, unreadable and other realms’ messages are "Invalid message(s)"', async () => {
    await subscribe(c.w, c.w.owner, ['secret'], { invite_only: true, principals: [c.w.owner.id] });
    const secret = await send(c.w, c.w.owner, 'secret', '/poll Hidden?');
    const dm = await send(c.w, c.w.owner, [c.member], '/poll Just us?');
    expect(failure(await submit(c.w, c.other, secret, vote()))).toBe('Invalid message(s)');
    expect(failure(await submit(c.w, c.other, dm, vote()))).toBe('Invalid message(s)');
    expect(failure(await submit(c.w, c.other, 999_999, vote()))).toBe('Invalid message(s)');
    // A participant of the direct message may vote; the event goes to the participants only.
    c.drain();
    must(await submit(c.w, c.member, dm, vote()));
    expect(recipientsOf(c.drain(), 'submessage')).toEqual([ids(c.w.owner, c.member)]);

    // Another realm on the same server: its message IDs share the sequence, so the ID exists.
    const foreign = await otherRealmPoll(c);
    expect(failure(await submit(c.w, c.w.owner, foreign, vote()))).toBe('Invalid message(s)');
    expect(await c.w.ctx.storage.read((tx) => tx.submessages.forMessages(c.w.realm.id, [foreign]))).toEqual([]);
  });

  it('an archived channel’s messages take no more submessages', async () => {
    const poll = await send(c.w, c.member, 'general', '/poll Still open?');
    await setStream(c.w, await channel(c.w, 'general'), { isArchived: true });
    expect(failure(await submit(c.w, c.member, poll, vote()))).toBe('Invalid message(s)');
    expect(await submessagesOf(c.w, c.member, poll)).toHaveLength(1);
  });

  it('a private channel without shared history: readers with a copy only', async () => {
    await subscribe(c.w, c.w.owner, ['vault'], { invite_only: true, principals: [c.w.owner.id, c.member.id] });
    const poll = await send(c.w, c.w.owner, 'vault', '/poll Vault?');
    await subscribe(c.w, c.w.owner, ['vault'], { principals: [c.moderator.id] });
    expect(failure(await submit(c.w, c.moderator, poll, vote()))).toBe('Invalid message(s)');
    c.drain();
    must(await submit(c.w, c.member, poll, vote()));
    expect(recipientsOf(c.drain(), 'submessage')).toEqual([ids(c.w.owner, c.member)]);
  });
});

describe('bounds', () => {
  it('a message holds at most 10000 submessages: every fetch of it carries them all', async () => {
    const poll = await send(c.w, c.member, 'general', '/poll Popular?');
    await c.w.ctx.storage.transaction(async (tx) => {
      for (let i = 1; i < 10_000; i++) await tx.submessages.insert(c.w.realm.id, { messageId: poll, senderId: c.other.id, msgType: 'widget', content: '{}' });
      return ok(undefined);
    });
    c.drain();
    expect(failure(await submit(c.w, c.other, poll, vote()))).toBe('A message can have at most 10000 submessages.');
    expect(recipientsOf(c.drain(), 'submessage')).toEqual([]);
  });
});

describe('bad input', () => {
  it('missing, malformed, oversized and mistyped parameters are 4xx with the reference’s texts', async () => {
    const poll = await send(c.w, c.member, 'general', '/poll Q');
    const as = c.w.as(c.member);
    const run = (input: Record<string, unknown>) => doSendSubmessage.fromTransport(c.w.ctx, as, input);
    const base = { message_id: String(poll), msg_type: 'widget', content: JSON.stringify(vote()) };
    expect(failure(await run({ msg_type: 'widget', content: '{}' }))).toBe("Missing 'message_id' argument");
    expect(failure(await run({ message_id: String(poll), content: '{}' }))).toBe("Missing 'msg_type' argument");
    expect(failure(await run({ message_id: String(poll), msg_type: 'widget' }))).toBe("Missing 'content' argument");
    expect(failure(await run({ ...base, message_id: 'abc' }))).toBe('message_id is not valid JSON');
    expect(failure(await run({ ...base, message_id: '"7"' }))).toBe('message_id is not an integer');
    expect(failure(await run({ ...base, msg_type: 'w'.repeat(101) }))).toBe('msg_type is too long (limit: 100 characters)');
    expect(failure(await run({ ...base, content: JSON.stringify({ type: 'vote', key: 'k'.repeat(10_000), vote: 1 }) }))).toBe(
      'content is too long (limit: 10000 characters)',
    );
    expect(await submessagesOf(c.w, c.member, poll)).toHaveLength(1);
  });
});
