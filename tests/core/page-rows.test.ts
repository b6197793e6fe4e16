/**
 * messages/page-rows.ts over a stand-in transaction that counts its reads: a page's rows are
 * kept under their format stamps, checked by position, read again only where a stamp changed,
 * and the stamps a window read `withStamps` brings are used instead of a formatStamps read.
 * (tests/core/messages-fetch-cached.test.ts checks the served pages against uncached ones.)
 */
import { describe, expect, it } from 'vitest';
import { pageRows } from '../../packages/core/src/messages/page-rows.js';
import type { Message, Tx } from '../../packages/core/src/storage/types.js';

const REALM = 1;

function message(id: number, realmId = REALM): Message {
  return {
    id, realmId, senderId: 1, type: 'stream', streamId: 1, topic: 't', dmKey: null, content: `m${id}`, renderedContent: `<p>m${id}</p>`,
    dateSent: id, sendingClient: 'test', lastEditTime: null, lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false,
    hasAttachment: false, isMeMessage: false,
  };
}

/** A transaction over `messages` whose stamps are `stamps`, recording which IDs each read asked for. */
function standIn(messages: Message[], stamps: Map<number, number>) {
  const reads = { stamps: [] as number[][], rows: [] as number[][] };
  const tx = {
    messages: {
      formatStamps: async (ids: readonly number[]) => {
        reads.stamps.push([...ids]);
        return new Map([...stamps].filter(([id]) => ids.includes(id)));
      },
      byIds: async (realmId: number, ids: readonly number[]) => {
        reads.rows.push([...ids]);
        // As the store answers: ascending, the realm's own, unknown IDs left out.
        return messages.filter((m) => m.realmId === realmId && ids.includes(m.id)).map((m) => ({ ...m }));
      },
    },
    reactions: { forMessages: async () => [] },
    submessages: { forMessages: async () => [] },
  } as unknown as Tx;
  return { tx, reads };
}

describe('pageRows', () => {
  it('keeps rows by position under their stamps: only missing or changed messages are read again, in page order', async () => {
    const storage = {};
    const messages = [1, 2, 3, 4, 5].map((id) => message(id));
    const stamps = new Map<number, number>();
    const { tx, reads } = standIn(messages, stamps);

    const first = await pageRows(tx, storage, REALM, [1, 2, 3]);
    expect(first.map((r) => r.message.id)).toEqual([1, 2, 3]);
    expect(reads.rows).toEqual([[1, 2, 3]]);

    // 2 changed (a new stamp) and 4, 5 never read: read again between kept ones, the page in its order.
    stamps.set(2, 77);
    const second = await pageRows(tx, storage, REALM, [1, 2, 3, 4, 5]);
    expect(second.map((r) => r.message.id)).toEqual([1, 2, 3, 4, 5]);
    expect(reads.rows).toEqual([[1, 2, 3], [2, 4, 5]]);
    // The kept rows are the same objects as before; the changed one is new.
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
    expect(second[1]).not.toBe(first[1]);

    // Everything kept: no row read at all.
    const third = await pageRows(tx, storage, REALM, [2, 3, 5]);
    expect(third.map((r) => r.message.id)).toEqual([2, 3, 5]);
    expect(reads.rows.length).toBe(2);
  });

  it('takes the stamps a window brought instead of reading them, and trusts them over what is kept', async () => {
    const storage = {};
    const messages = [1, 2, 3].map((id) => message(id));
    const { tx, reads } = standIn(messages, new Map());

    await pageRows(tx, storage, REALM, [1, 2, 3], new Map());
    expect(reads.stamps).toEqual([]);
    expect(reads.rows).toEqual([[1, 2, 3]]);

    // The window's stamp for 3 differs from the kept one: 3 is read again, without a stamps read.
    const rows = await pageRows(tx, storage, REALM, [1, 2, 3], new Map([[3, 9]]));
    expect(rows.map((r) => r.message.id)).toEqual([1, 2, 3]);
    expect(reads.stamps).toEqual([]);
    expect(reads.rows).toEqual([[1, 2, 3], [3]]);

    // Without stamps given, they are read (once) for the page.
    await pageRows(tx, storage, REALM, [1, 2]);
    expect(reads.stamps).toEqual([[1, 2]]);
  });

  it("leaves out unknown IDs and other realms' messages, kept or not", async () => {
    const storage = {};
    const messages = [message(1), message(2, 2), message(3)];
    const { tx } = standIn(messages, new Map());
    expect((await pageRows(tx, storage, REALM, [1, 2, 3, 4])).map((r) => r.message.id)).toEqual([1, 3]);
    // Kept now: still left out for the other realm, and 1 and 3 come from what is kept.
    expect((await pageRows(tx, storage, 2, [1, 2, 3])).map((r) => r.message.id)).toEqual([2]);
    expect((await pageRows(tx, storage, REALM, [1, 2, 3])).map((r) => r.message.id)).toEqual([1, 3]);
    expect(await pageRows(tx, storage, REALM, [])).toEqual([]);
  });
});
