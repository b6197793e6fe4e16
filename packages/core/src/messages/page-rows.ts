import type { Message, Reaction, Submessage, Tx } from '../storage/types.js';

/** What a message's record is formatted from besides the viewer and the realm: its row, reactions and submessages. */
export interface MessageRows {
  readonly message: Readonly<Message>;
  /** In ID order. */
  readonly reactions: readonly Reaction[];
  /** In ID order. */
  readonly submessages: readonly Submessage[];
}

interface Entry extends MessageRows {
  readonly stamp: number;
}

/**
 * How many messages' rows a process keeps per storage. A page reads 50 by default; 65,536 keep
 * the recent pages of a busy realm (the history bench cycles over 50,000 messages, which take
 * 22 MB of heap; longer messages take more, about 60 MB at the bound).
 */
const LIMIT = 65_536;

/** One cache per storage (a process may open several, as tests and embedders do): message IDs are unique only within one. */
const caches = new WeakMap<object, Map<number, Entry>>();

/**
 * The rows of the listed messages (ascending IDs; unknown ones and other realms' left out),
 * read once and then kept per process under each message's format stamp
 * (MessageStore.formatStamps). The stamps are read in the caller's snapshot, so an entry is
 * used only while its message, reactions and submessages are exactly as that snapshot has
 * them, whichever process changed them: PostgreSQL clusters share the database, and the
 * stamp lives there. Only for read transactions: a write transaction's own uncommitted
 * changes must not be kept. Kept rows are frozen, shared by every page that shows them.
 * `stamps`: the IDs' stamps as read in the same snapshot (a window read `withStamps`); without
 * them they are read here.
 */
export async function pageRows(
  tx: Tx,
  storage: object,
  realmId: number,
  ids: readonly number[],
  stamps?: ReadonlyMap<number, number>,
): Promise<MessageRows[]> {
  if (ids.length === 0) return [];
  let cache = caches.get(storage);
  if (!cache) caches.set(storage, (cache = new Map()));
  stamps ??= await tx.messages.formatStamps(ids);
  // rows[i] is ids[i]'s entry while the kept ones are checked; the missing are filled in after.
  const rows: (Entry | undefined)[] = new Array(ids.length);
  const missing: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const entry = cache.get(id);
    if (entry && entry.stamp === (stamps.get(id) ?? 0) && entry.message.realmId === realmId) rows[i] = entry;
    else missing.push(id);
  }
  if (missing.length === 0) return rows as Entry[];
  const read = new Map<number, Entry>();
  for (const entry of await readRows(tx, realmId, missing, stamps)) {
    read.set(entry.message.id, entry);
    // Oldest first out: a Map iterates in insertion order, and a replaced entry is moved last.
    cache.delete(entry.message.id);
    if (cache.size >= LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(entry.message.id, entry);
  }
  const found: Entry[] = [];
  for (let i = 0; i < ids.length; i++) {
    // Unknown IDs and other realms' messages are left out.
    const entry = rows[i] ?? read.get(ids[i]!);
    if (entry) found.push(entry);
  }
  return found;
}

/** The rows of `ids` as the transaction sees them, with the stamps read before them in the same snapshot. */
async function readRows(tx: Tx, realmId: number, ids: readonly number[], stamps: ReadonlyMap<number, number>): Promise<Entry[]> {
  const rows = await withReactionsAndSubmessages(tx, realmId, await tx.messages.byIds(realmId, ids));
  return rows.map((row) => Object.freeze({ ...deepFreeze(row), stamp: stamps.get(row.message.id) ?? 0 }));
}

/** Messages read already with their reactions and submessages: one query each for all of them, not kept. */
export async function withReactionsAndSubmessages(tx: Tx, realmId: number, messages: readonly Message[]): Promise<MessageRows[]> {
  const ids = messages.map((m) => m.id);
  const reactions = groupByMessage(await tx.reactions.forMessages(ids));
  const submessages = groupByMessage(await tx.submessages.forMessages(realmId, ids));
  return messages.map((message) => ({ message, reactions: reactions.get(message.id) ?? [], submessages: submessages.get(message.id) ?? [] }));
}

/** Rows grouped by message; they arrive in ID order and stay in it. */
function groupByMessage<T extends { messageId: number }>(rows: readonly T[]): Map<number, T[]> {
  const grouped = new Map<number, T[]>();
  for (const row of rows) {
    const list = grouped.get(row.messageId);
    if (list) list.push(row);
    else grouped.set(row.messageId, [row]);
  }
  return grouped;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}
