/**
 * The register's recent_private_conversations (SHAPES.md 2.4): the requester's direct
 * conversations, newest first, with the newest message each still holds and the other
 * participants ascending ([] for the conversation with oneself), at most 1,000. Also that the
 * `message` events a queue receives are enough to keep it current, as the reference's
 * apply_event does.
 */
import { doDeleteMessage, doRegister, doSendMessage, doUpdateRealm, getEvents, type QueuedEvent, type User } from '@teamchat/core';
import { ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { makeWorld, must, type World } from '../helpers/core.js';
import { secondRealm } from './fixtures.js';

async function setup() {
  const w = await makeWorld({ config: { timers: false } });
  const ann = await w.addUser({ email: 'ann@example.com', fullName: 'Ann' });
  const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const cat = await w.addUser({ email: 'cat@example.com', fullName: 'Cat' });
  const dm = async (from: User, to: User[], content = 'hi') =>
    (must(await doSendMessage(w.ctx, w.as(from), { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content }))).id;
  return { w, ann, bob, cat, dm };
}

type Conversation = { max_message_id: number; user_ids: number[] };

async function recent(w: World, user: User | null): Promise<Conversation[]> {
  const body = must(await doRegister(w.ctx, w.as(user), { fetch_event_types: ["recent_private_conversations"] }));
  return body.recent_private_conversations as Conversation[];
}

describe('recent_private_conversations', () => {
  it('lists one-on-one, group and self conversations from each side, newest first', async () => {
    const { w, ann, bob, cat, dm } = await setup();
    expect(await recent(w, ann)).toEqual([]);
    const one = await dm(bob, [ann]);
    const group = await dm(cat, [bob, ann]);
    const self = await dm(ann, [ann]);
    expect(await recent(w, ann)).toEqual([
      { max_message_id: self, user_ids: [] },
      { max_message_id: group, user_ids: [bob.id, cat.id] },
      { max_message_id: one, user_ids: [bob.id] },
    ]);
    expect(await recent(w, bob)).toEqual([
      { max_message_id: group, user_ids: [ann.id, cat.id] },
      { max_message_id: one, user_ids: [ann.id] },
    ]);
    expect(await recent(w, cat)).toEqual([{ max_message_id: group, user_ids: [ann.id, bob.id] }]);
    // A new message moves its conversation to the front.
    const again = await dm(ann, [bob]);
    expect((await recent(w, ann))[0]).toEqual({ max_message_id: again, user_ids: [bob.id] });
    expect(await recent(w, ann)).toHaveLength(3);
  });

  it('follows deletions: the newest remaining message, and no entry once none remains', async () => {
    const { w, ann, bob, dm } = await setup();
    const first = await dm(bob, [ann]);
    const second = await dm(ann, [bob]);
    must(await doDeleteMessage(w.ctx, w.as(ann), { message_id: second }));
    expect(await recent(w, ann)).toEqual([{ max_message_id: first, user_ids: [bob.id] }]);
    expect(await recent(w, bob)).toEqual([{ max_message_id: first, user_ids: [ann.id] }]);
    must(await doDeleteMessage(w.ctx, w.as(bob), { message_id: first }));
    expect(await recent(w, ann)).toEqual([]);
    expect(await recent(w, bob)).toEqual([]);
  });

  it('never shows other people\'s conversations or another realm\'s', async () => {
    const { w, ann, bob, cat, dm } = await setup();
    await dm(bob, [cat]);
    const other = await secondRealm(w.ctx);
    must(await doSendMessage(w.ctx, { realm: other.realm, user: other.owner }, { type: 'direct', to: JSON.stringify([other.owner.id]), content: 'x' }));
    expect(await recent(w, ann)).toEqual([]);
    expect(await recent(w, w.owner)).toEqual([]);
  });

  it('is empty for spectators', async () => {
    const { w, ann, bob, dm } = await setup();
    await dm(ann, [bob]);
    must(await doUpdateRealm(w.ctx, w.as(w.owner), { enable_spectator_access: true }));
    const realm = (await w.ctx.storage.read((tx) => tx.realms.byId(w.realm.id)))!;
    const body = must(await doRegister(w.ctx, { realm, user: null }, { fetch_event_types: ["recent_private_conversations"] }));
    expect(body.recent_private_conversations).toEqual([]);
  });

  it('keeps the 1,000 newest conversations, newest first', async () => {
    const { w, ann } = await setup();
    // 1,005 conversations written straight to the store (as many users would take long to make).
    const ids: number[] = [];
    await w.ctx.storage.transaction(async (tx) => {
      for (let i = 0; i < 1005; i++) {
        const peer = 100_000 + i;
        const message = await tx.messages.insert(
          {
            realmId: w.realm.id, senderId: ann.id, type: 'private', streamId: null, topic: '', dmKey: `${ann.id},${peer}`,
            content: 'x', renderedContent: '<p>x</p>', dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null,
            lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
          },
          [{ userId: ann.id, flags: 0 }, { userId: peer, flags: 0 }],
        );
        ids.push(message.id);
      }
      return ok(undefined);
    });
    const list = await recent(w, ann);
    expect(list).toHaveLength(1000);
    expect(list[0]).toEqual({ max_message_id: ids[1004], user_ids: [100_000 + 1004] });
    expect(list[999]).toEqual({ max_message_id: ids[5], user_ids: [100_005] });
    expect(list.map((c) => c.max_message_id)).toEqual([...ids].reverse().slice(0, 1000));
  });

  it('is kept current by the message events of the queue', async () => {
    const { w, ann, bob, cat, dm } = await setup();
    await dm(bob, [ann]);
    const body = must(await doRegister(w.ctx, w.as(ann), { fetch_event_types: ["recent_private_conversations"], event_types: ["message"] })) as {
      queue_id: string;
      recent_private_conversations: Conversation[];
    };
    await dm(cat, [ann, bob]);
    await dm(ann, [ann]);
    await dm(bob, [ann]);
    const { events } = must(await getEvents(w.ctx, w.as(ann), { queue_id: body.queue_id, dont_block: true }));
    // The reference's apply_event: the conversation of each direct message gets its ID.
    const state = new Map(body.recent_private_conversations.map((c) => [c.user_ids.join(','), c.max_message_id]));
    for (const event of events) {
      const message = (event as { message: { id: number; type: string; display_recipient: Array<{ id: number }> } }).message;
      if (event.type !== 'message' || message.type !== 'private') continue;
      const others = message.display_recipient.map((r) => r.id).filter((id) => id !== ann.id).sort((a, b) => a - b);
      state.set(others.join(','), message.id);
    }
    const applied = [...state].map(([key, id]) => ({ max_message_id: id, user_ids: key === '' ? [] : key.split(',').map(Number) }));
    applied.sort((a, b) => b.max_message_id - a.max_message_id);
    expect(applied).toEqual(await recent(w, ann));
    expect(applied).toHaveLength(3);
  });
});
