/**
 * What GET /messages reads, run by storage.case.ts for every driver: message windows whose
 * queries a driver may answer from indexes alone (topic narrows, flag-only narrows, channel
 * history without flags), and the channel state token readers cache channel lists under.
 */
import type { MessageCondition, MessageScope, NewMessage, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { err } from './core-deps.js';
import { commit, newStream, newSubscription, newUser, seed } from './fixtures.js';

/** A condition without its `negated` (Omit distributed over the union). */
type Unnegated = MessageCondition extends infer C ? (C extends unknown ? Omit<C, 'negated'> : never) : never;

const READ = 1;
const STARRED = 2;

export function describeMessageReads(storage: () => Storage): void {
  /** A realm with viewer and peer, one shared-history channel, and a mix of channel and direct messages. */
  async function world() {
    const { realm, users: [viewer, peer] } = await seed(storage(), [{}, {}]);
    const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
    const base = {
      realmId: realm.id, senderId: peer!.id, content: 'c', renderedContent: '<p>c</p>', dateSent: 1, sendingClient: 'test', lastEditTime: null,
      lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
    };
    const channel = (topic: string): NewMessage => ({ ...base, type: 'stream', streamId: stream.id, topic, dmKey: null });
    const direct: NewMessage = { ...base, type: 'private', streamId: null, topic: '', dmKey: [viewer!.id, peer!.id].sort((a, b) => a - b).join(',') };
    // ids[i]: 0 Lunch (viewer copy, read), 1 dinner (no viewer copy), 2 DM (unread), 3 lunch (unread, starred), 4 DM (read)
    const ids: number[] = [];
    await commit(storage(), async (tx) => {
      ids.push((await tx.messages.insert(channel('Lunch'), [{ userId: viewer!.id, flags: READ }])).id);
      ids.push((await tx.messages.insert(channel('dinner'), [{ userId: peer!.id, flags: READ }])).id);
      ids.push((await tx.messages.insert(direct, [{ userId: viewer!.id, flags: 0 }, { userId: peer!.id, flags: READ }])).id);
      ids.push((await tx.messages.insert(channel('lunch'), [{ userId: viewer!.id, flags: STARRED }])).id);
      ids.push((await tx.messages.insert(direct, [{ userId: viewer!.id, flags: READ }, { userId: peer!.id, flags: READ }])).id);
    });
    const scope: MessageScope = { userId: viewer!.id, sharedHistoryStreamIds: [stream.id] };
    return { realm, viewer: viewer!, stream, ids, scope };
  }

  const newest = { anchor: Number.MAX_SAFE_INTEGER, includeAnchor: true, numBefore: 50, numAfter: 0 };
  const on = (c: Unnegated, negated = false) => ({ ...c, negated });

  describe('message windows that indexes may answer alone', () => {
    it('a topic narrow in a channel finds the topic in any case, with or without the reader holding a copy, and never a direct message', async () => {
      const { stream, ids, scope } = await world();
      await storage().read(async (tx) => {
        const topic = await tx.messages.window(scope, [on({ kind: 'stream', streamId: stream.id }), on({ kind: 'topic', topic: 'LUNCH' })], newest);
        expect(topic).toEqual({ ids: [ids[0], ids[3]], foundAnchor: false, foundOldest: true, foundNewest: true });
        // Without a channel term, over the reader's copies only: the DMs have the empty topic but are not channel messages.
        expect((await tx.messages.window(scope, [on({ kind: 'topic', topic: '' })], newest)).ids).toEqual([]);
        // Negated: everything the reader holds except the topic, DMs included.
        expect((await tx.messages.window(scope, [on({ kind: 'topic', topic: 'lunch' }, true)], newest)).ids).toEqual([ids[2], ids[4]]);
        // A page of one, walking down from the newest: found_oldest only once the walk passes the oldest.
        const page = await tx.messages.window(scope, [on({ kind: 'stream', streamId: stream.id }), on({ kind: 'topic', topic: 'lunch' })], { ...newest, numBefore: 1 });
        expect(page).toEqual({ ids: [ids[3]], foundAnchor: false, foundOldest: false, foundNewest: true });
      });
    });

    it('a channel narrow without flag terms reads the whole shared history; with one, messages without a copy count as read', async () => {
      const { stream, ids, scope } = await world();
      await storage().read(async (tx) => {
        expect((await tx.messages.window(scope, [on({ kind: 'stream', streamId: stream.id })], newest)).ids).toEqual([ids[0], ids[1], ids[3]]);
        const unread = on({ kind: 'flag', mask: READ, set: false });
        expect((await tx.messages.window(scope, [on({ kind: 'stream', streamId: stream.id }), unread], newest)).ids).toEqual([ids[3]]);
        expect((await tx.messages.window(scope, [on({ kind: 'stream', streamId: stream.id }), on({ kind: 'flag', mask: READ, set: true })], newest)).ids).toEqual([ids[0], ids[1]]);
      });
    });

    it('flag-only narrows over the reader copies: unread, starred, negated, and a flag term given twice', async () => {
      const { ids, scope } = await world();
      const unread = on({ kind: 'flag', mask: READ, set: false });
      await storage().read(async (tx) => {
        expect((await tx.messages.window(scope, [unread], newest)).ids).toEqual([ids[2], ids[3]]);
        expect((await tx.messages.window(scope, [unread, unread], newest)).ids).toEqual([ids[2], ids[3]]);
        expect((await tx.messages.window(scope, [on({ kind: 'flag', mask: STARRED, set: true })], newest)).ids).toEqual([ids[3]]);
        expect((await tx.messages.window(scope, [on({ kind: 'flag', mask: STARRED, set: true }, true)], newest)).ids).toEqual([ids[0], ids[2], ids[4]]);
        // first_unread's probe: the oldest unread above 0, and a window after it.
        const first = await tx.messages.window(scope, [unread, unread], { anchor: 0, includeAnchor: false, numBefore: 0, numAfter: 1 });
        expect(first).toEqual({ ids: [ids[2]], foundAnchor: false, foundOldest: true, foundNewest: false });
        const after = await tx.messages.window(scope, [unread], { anchor: ids[2]!, includeAnchor: true, numBefore: 0, numAfter: 50 });
        expect(after).toEqual({ ids: [ids[2], ids[3]], foundAnchor: true, foundOldest: true, foundNewest: true });
        expect(await tx.messages.matches(scope, [unread], ids[3]!)).toBe(true);
        expect(await tx.messages.matches(scope, [unread], ids[0]!)).toBe(false);
      });
    });
  });

  it("a window withFlags reads the viewer's flags of its messages in the same walk, as flagsOf gives them, in every kind of scope", async () => {
    const { stream, ids, scope } = await world();
    const inStream = on({ kind: 'stream', streamId: stream.id });
    const unread = on({ kind: 'flag', mask: READ, set: false });
    await storage().read(async (tx) => {
      // A shared channel without flag terms: ids[1] has no copy of the viewer's, so no flags.
      const channel = await tx.messages.window(scope, [inStream], { ...newest, withFlags: true });
      expect(channel).toEqual({
        ids: [ids[0], ids[1], ids[3]],
        foundAnchor: false,
        foundOldest: true,
        foundNewest: true,
        flags: new Map([[ids[0]!, READ], [ids[3]!, STARRED]]),
      });
      // The anchor's own row, and only the window's rows (not the one past numBefore that tells found_oldest).
      const around = await tx.messages.window(scope, [inStream], { anchor: ids[3]!, includeAnchor: true, numBefore: 1, numAfter: 1, withFlags: true });
      expect(around.ids).toEqual([ids[1], ids[3]]);
      expect(around.flags).toEqual(new Map([[ids[3]!, STARRED]]));
      const anchorOnly = await tx.messages.window(scope, [inStream], { anchor: ids[0]!, includeAnchor: true, numBefore: 0, numAfter: 0, withFlags: true });
      expect(anchorOnly).toMatchObject({ ids: [ids[0]], foundAnchor: true, flags: new Map([[ids[0]!, READ]]) });
      const cases: MessageCondition[][] = [
        [inStream, unread],
        [on({ kind: 'streams', streamIds: [stream.id] })],
        [unread],
        [on({ kind: 'flag', mask: STARRED, set: true }, true)],
        [],
        [on({ kind: 'topic', topic: 'lunch' }, true)],
      ];
      for (const conditions of cases) {
        const { flags, ...window } = await tx.messages.window(scope, conditions, { ...newest, withFlags: true });
        // The same IDs as without flags, and the flags flagsOf reads for them.
        expect(window).toEqual(await tx.messages.window(scope, conditions, newest));
        expect(window.ids.length).toBeGreaterThan(0);
        expect(flags).toEqual(await tx.messages.flagsOf(scope.userId, window.ids));
      }
      // Without withFlags, no flags.
      expect((await tx.messages.window(scope, [inStream], newest)).flags).toBeUndefined();
    });
  });

  it('a window withStamps reads its messages\' format stamps in the same walk, as formatStamps gives them, in every kind of scope and with flags', async () => {
    const { realm, viewer, stream, ids, scope } = await world();
    const inStream = on({ kind: 'stream', streamId: stream.id });
    const cases: MessageCondition[][] = [
      [inStream],
      [inStream, on({ kind: 'flag', mask: READ, set: false })],
      [on({ kind: 'streams', streamIds: [stream.id] })],
      [on({ kind: 'flag', mask: READ, set: false })],
      [],
      [on({ kind: 'topic', topic: 'lunch' }, true)],
    ];
    const check = async (changed: readonly number[]) =>
      await storage().read(async (tx) => {
        for (const conditions of cases) {
          for (const withFlags of [false, true]) {
            for (const bounds of [newest, { anchor: ids[2]!, includeAnchor: true, numBefore: 1, numAfter: 1 }]) {
              const { stamps, ...window } = await tx.messages.window(scope, conditions, { ...bounds, withFlags, withStamps: true });
              // The same IDs (and flags) as without stamps, and the stamps formatStamps reads for them.
              expect(window).toEqual(await tx.messages.window(scope, conditions, { ...bounds, withFlags }));
              expect(stamps).toEqual(await tx.messages.formatStamps(window.ids));
              // Only the window's own messages, and each stamp as a number.
              for (const [id, stamp] of stamps!) {
                expect(window.ids).toContain(id);
                expect(changed).toContain(id);
                expect(typeof stamp).toBe('number');
              }
            }
          }
        }
        // Without withStamps, no stamps.
        expect((await tx.messages.window(scope, [inStream], newest)).stamps).toBeUndefined();
      });
    // Never changed since sent: no stamps at all.
    await check([]);
    const before = await storage().read((tx) => tx.messages.window(scope, [inStream], { ...newest, withStamps: true }));
    expect(before.stamps).toEqual(new Map());
    // Changed messages (an edit, a reaction on a message the viewer holds no copy of) have stamps; the others still none.
    await commit(storage(), async (tx) => {
      await tx.messages.update(realm.id, ids[0]!, { content: 'edited' });
      await tx.reactions.add(realm.id, { messageId: ids[1]!, userId: viewer.id, emojiName: 'smile', emojiCode: '1f642', reactionType: 'unicode_emoji' });
      await tx.messages.update(realm.id, ids[2]!, { content: 'edited' });
    });
    await check([ids[0]!, ids[1]!, ids[2]!]);
    const after = await storage().read((tx) => tx.messages.window(scope, [inStream], { ...newest, withStamps: true }));
    expect([...after.stamps!.keys()].sort((a, b) => a - b)).toEqual([ids[0], ids[1]]);
  });

  it('windows at the ends of the ID range: anchor 0, the first ID, newest, and anchors past every ID', async () => {
    const { ids, scope } = await world();
    await storage().read(async (tx) => {
      // Without a channel term: the reader's copies (ids[1] is not one).
      const held = [ids[0], ids[2], ids[3], ids[4]];
      const all = { anchor: 0, includeAnchor: true, numBefore: 5, numAfter: 50 };
      expect(await tx.messages.window(scope, [], all)).toEqual({ ids: held, foundAnchor: false, foundOldest: true, foundNewest: true });
      const fromFirst = await tx.messages.window(scope, [], { ...all, anchor: ids[0]!, numAfter: 1 });
      expect(fromFirst).toEqual({ ids: [ids[0], ids[2]], foundAnchor: true, foundOldest: true, foundNewest: false });
      for (const anchor of [ids[4]! + 1, Number.MAX_SAFE_INTEGER, 10_000_000_000_000_000]) {
        expect(await tx.messages.window(scope, [], { anchor, includeAnchor: true, numBefore: 2, numAfter: 5 })).toEqual({
          ids: [ids[3], ids[4]],
          foundAnchor: false,
          foundOldest: false,
          foundNewest: true,
        });
      }
    });
  });

  it('messages.dmConversationIds: the numbers dmConversationId gives, for the keys that have a conversation in the realm', async () => {
    const { realm, viewer, ids } = await world();
    await storage().read(async (tx) => {
      const [dm] = await tx.messages.byIds(realm.id, [ids[2]!]);
      const key = dm!.dmKey!;
      const number = await tx.messages.dmConversationId(realm.id, key);
      expect(number).toBeGreaterThan(0);
      expect(await tx.messages.dmConversationIds(realm.id, [key, `${viewer.id}`, key])).toEqual(new Map([[key, number]]));
      expect(await tx.messages.dmConversationIds(realm.id + 1000, [key])).toEqual(new Map());
      expect(await tx.messages.dmConversationIds(realm.id, [])).toEqual(new Map());
    });
  });

  describe('streams.stateToken', () => {
    it('changes with every write to channels or subscriptions, in the writing transaction, and only then', async () => {
      const { realm, viewer, stream } = await world();
      const token = () => storage().read((tx) => tx.streams.stateToken());
      const before = await token();
      expect(await token()).toBe(before);

      // A message, a flag change: the token stays.
      await commit(storage(), async (tx) => {
        await tx.messages.setFlags(viewer.id, [1, 2, 3], STARRED, true);
      });
      expect(await token()).toBe(before);

      const seen = new Set([before]);
      const write = async (fn: Parameters<typeof commit>[1]) => {
        const inside = await commit(storage(), async (tx) => {
          const start = await tx.streams.stateToken();
          await fn(tx);
          const end = await tx.streams.stateToken();
          expect(end).not.toBe(start);
          return end;
        });
        expect(await token()).toBe(inside);
        expect(seen.has(inside)).toBe(false);
        seen.add(inside);
      };
      await write((tx) => tx.streams.insert(newStream(realm.id)));
      await write((tx) => tx.streams.update(realm.id, stream.id, { description: 'changed' }));
      await write((tx) => tx.subscriptions.upsert(newSubscription(realm.id, viewer.id, stream.id)));
      await write((tx) => tx.subscriptions.update(realm.id, viewer.id, stream.id, { active: false }));

      // A rolled-back write leaves the token as it was.
      const committed = await token();
      const failed = await storage().transaction(async (tx) => {
        await tx.streams.update(realm.id, stream.id, { description: 'rolled back' });
        return err('no');
      });
      expect(failed.isErr()).toBe(true);
      expect(await token()).toBe(committed);
    });
  });

  describe('messages.formatStamps', () => {
    it("changes a message's stamp with every write to its row, reactions or submessages, in the writing transaction, and only then", async () => {
      const { realm, viewer, ids } = await world();
      const [id, peerMessage] = [ids[0]!, ids[1]!];
      const stamps = () => storage().read((tx) => tx.messages.formatStamps([id, peerMessage]));
      // Never changed since sent: no stamp (0).
      expect(await stamps()).toEqual(new Map());

      // Flags and other messages' changes leave it.
      await commit(storage(), (tx) => tx.messages.setFlags(viewer.id, [id], STARRED, true));
      expect(await stamps()).toEqual(new Map());

      const seen = new Set<number>([0]);
      const write = async (fn: Parameters<typeof commit>[1]) => {
        const inside = await commit(storage(), async (tx) => {
          const start = (await tx.messages.formatStamps([id])).get(id) ?? 0;
          await fn(tx);
          const end = (await tx.messages.formatStamps([id])).get(id) ?? 0;
          expect(end).not.toBe(start);
          return end;
        });
        expect(await stamps()).toEqual(new Map([[id, inside]]));
        expect(seen.has(inside)).toBe(false);
        seen.add(inside);
      };
      const reaction = { messageId: id, userId: viewer.id, emojiName: 'smile', emojiCode: '1f642', reactionType: 'unicode_emoji' as const };
      await write((tx) => tx.messages.update(realm.id, id, { content: 'edited' }));
      await write((tx) => tx.messages.update(realm.id, id, { topic: 'moved', lastMovedTime: 2 }));
      await write((tx) => tx.reactions.add(realm.id, reaction));
      await write((tx) => tx.reactions.remove(realm.id, reaction));
      await write((tx) => tx.submessages.insert(realm.id, { messageId: id, senderId: viewer.id, msgType: 'widget', content: '{}' }));

      // A rolled-back write leaves the stamp as it was.
      const committed = await stamps();
      const failed = await storage().transaction(async (tx) => {
        await tx.messages.update(realm.id, id, { content: 'rolled back' });
        return err('no');
      });
      expect(failed.isErr()).toBe(true);
      expect(await stamps()).toEqual(committed);

      // A deleted message leaves no stamp behind, even with reactions and submessages going with it.
      await commit(storage(), (tx) => tx.reactions.add(realm.id, reaction));
      await commit(storage(), (tx) => tx.messages.delete(realm.id, [id]));
      expect(await stamps()).toEqual(new Map());
    });
  });

  describe('users.stateToken', () => {
    it('changes with every write to a user, in the writing transaction, and only then', async () => {
      const { realm, viewer, stream } = await world();
      const token = () => storage().read((tx) => tx.users.stateToken());
      const before = await token();
      expect(await token()).toBe(before);
      // A channel write and a flag change: the token stays.
      await commit(storage(), (tx) => tx.streams.update(realm.id, stream.id, { description: 'changed' }));
      await commit(storage(), (tx) => tx.messages.setFlags(viewer.id, [1, 2, 3], STARRED, true));
      expect(await token()).toBe(before);

      const seen = new Set([before]);
      const write = async (fn: Parameters<typeof commit>[1]) => {
        const inside = await commit(storage(), async (tx) => {
          const start = await tx.users.stateToken();
          await fn(tx);
          const end = await tx.users.stateToken();
          expect(end).not.toBe(start);
          return end;
        });
        expect(await token()).toBe(inside);
        expect(seen.has(inside)).toBe(false);
        seen.add(inside);
      };
      await write((tx) => tx.users.insert(newUser(realm.id, { deliveryEmail: 'new@example.com' })));
      await write((tx) => tx.users.update(realm.id, viewer.id, { fullName: 'Renamed' }));

      const committed = await token();
      const failed = await storage().transaction(async (tx) => {
        await tx.users.update(realm.id, viewer.id, { fullName: 'rolled back' });
        return err('no');
      });
      expect(failed.isErr()).toBe(true);
      expect(await token()).toBe(committed);
    });
  });
}
