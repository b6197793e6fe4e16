/**
 * Messages carry their submessages: a `/poll` or `/todo` message is born a widget (its first
 * submessage rides on the message event), fetched pages read every message's submessages in
 * one query, a widget's content cannot be edited, and voting is participation.
 */
import { doUpdateMessage, getMessages, type Storage, type Tx } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { automatic, NEVER, ON_PARTICIPATION, sendTo, userTopicEvents } from './automatic-policy-helpers.js';
import { type ChannelWorld, channelWorld, subscribe } from './channel-helpers.js';
import { messageWorld } from './message-helpers.js';
import { send } from './reaction-helpers.js';
import { failure, submessagesOf, submit } from './submessage-helpers.js';

const POLL_CONTENT = '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Soup"]}}';

/** A storage that counts the submessage reads of each operation. */
function countingStorage(): { storage: Storage; reads: number[] } {
  const inner = createSqliteStorage();
  const reads: number[] = [];
  const counted = (tx: Tx): Tx =>
    new Proxy(tx, {
      get(target, key) {
        if (key !== 'submessages') return target[key as keyof Tx];
        return { ...target.submessages, forMessages: (...args: Parameters<Tx['submessages']['forMessages']>) => {
            reads.push(args[1].length);
            return target.submessages.forMessages(...args);
          },
        };
      },
    });
  return {
    reads,
    storage: { transaction: (fn) => inner.transaction((tx) => fn(counted(tx))), read: (fn) => inner.read((tx) => fn(counted(tx))), close: () => inner.close() },
  };
}

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
  await subscribe(c.w, c.w.owner, ['general'], { principals: [c.w.owner.id, c.member.id, c.other.id] });
});

describe('a /poll message', () => {
  it('is sent with its widget submessage on the message event, and no submessage event', async () => {
    c.drain();
    const id = await send(c.w, c.member, 'general', '/poll Lunch?\nPizza\nSoup');
    const published = c.drain();
    expect(published.filter((p) => p.event.type === 'submessage')).toEqual([]);
    const events = published.filter((p) => p.event.type === 'message');
    expect(events.length).toBeGreaterThan(0);
    for (const p of events) {
      expect((p.event.message as { submessages: unknown }).submessages).toEqual([
        { id: expect.any(Number), message_id: id, sender_id: c.member.id, msg_type: 'widget', content: POLL_CONTENT },
      ]);
    }
    expect(await submessagesOf(c.w, c.other, id)).toEqual((events[0]!.event.message as { submessages: unknown }).submessages);
  });

  it('a message that is no widget has no submessages', async () => {
    c.drain();
    const id = await send(c.w, c.member, 'general', 'a poll? /poll');
    for (const p of c.drain().filter((e) => e.event.type === 'message')) expect((p.event.message as { submessages: unknown }).submessages).toEqual([]);
    expect(await submessagesOf(c.w, c.other, id)).toEqual([]);
  });

  it('keeps its content: editing it is refused, moving it is not, and other messages stay editable', async () => {
    const poll = await send(c.w, c.member, 'general', '/poll Lunch?');
    const edit = (input: Record<string, string>) => doUpdateMessage(c.w.ctx, c.w.as(c.member), { message_id: poll, ...input });
    expect(failure(await edit({ content: '/poll Dinner?' }))).toBe('Widgets cannot be edited.');
    must(await edit({ topic: 'food' }));
    const plain = await send(c.w, c.member, 'general', 'plain');
    must(await doUpdateMessage(c.w.ctx, c.w.as(c.member), { message_id: plain, content: 'edited' }));
    // A message made a widget through POST /submessage is a widget too.
    must(await submit(c.w, c.member, plain, { widget_type: 'zform', extra_data: {} }));
    expect(failure(await doUpdateMessage(c.w.ctx, c.w.as(c.member), { message_id: plain, content: 'again' }))).toBe('Widgets cannot be edited.');
  });
});

describe('fetching', () => {
  it('GET /messages shows each message’s submessages in ID order, read in one query per page', async () => {
    const counting = countingStorage();
    const m = await channelWorld({ storage: counting.storage });
    await subscribe(m.w, m.w.owner, ['general'], { principals: [m.w.owner.id, m.member.id] });
    const polls = [await send(m.w, m.member, 'general', '/poll A?'), await send(m.w, m.member, 'general', 'plain'), await send(m.w, m.w.owner, 'general', '/todo B')];
    must(await submit(m.w, m.w.owner, polls[0]!, { type: 'vote', key: 'canned,0', vote: 1 }));
    must(await submit(m.w, m.w.owner, polls[2]!, { type: 'strike', key: '0,canned' }));
    must(await submit(m.w, m.member, polls[0]!, { type: 'vote', key: 'canned,0', vote: -1 }));
    counting.reads.length = 0;
    const page = must(await getMessages(m.w.ctx, m.w.as(m.member), { anchor: 'newest', num_before: 10, num_after: 0 })) as {
      messages: Array<{ id: number; submessages: Array<{ id: number; message_id: number; sender_id: number }> }>;
    };
    expect(counting.reads).toEqual([page.messages.length]);
    const byId = new Map(page.messages.map((message) => [message.id, message.submessages]));
    expect(byId.get(polls[0]!)!.map((s) => s.sender_id)).toEqual([m.member.id, m.w.owner.id, m.member.id]);
    expect(byId.get(polls[1]!)).toEqual([]);
    expect(byId.get(polls[2]!)!.map((s) => s.sender_id)).toEqual([m.w.owner.id, m.w.owner.id]);
    for (const list of byId.values()) {
      expect(list.map((s) => s.id)).toEqual([...list.map((s) => s.id)].sort((a, b) => a - b));
      for (const s of list) expect(polls).toContain(s.message_id);
    }
  });
});

describe('participation', () => {
  it('a vote follows the topic for a subscribed voter whose setting is on participation', async () => {
    const m = await messageWorld();
    await automatic(m, m.member, ON_PARTICIPATION, NEVER);
    const sent = (await sendTo(m, m.admin, 'lunch', '/poll Where?')) as { id: number };
    m.drain();
    must(await submit(m.w, m.member, sent.id, { type: 'vote', key: 'canned,0', vote: 1 }));
    expect(userTopicEvents(m.drain())).toEqual([[[m.member.id], m.general.id, 'lunch', 3]]);
  });
});
