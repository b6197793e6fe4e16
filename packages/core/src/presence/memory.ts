/**
 * Recent presence, kept in memory per realm. Every client of every user reports presence about
 * once a minute; writing each report in its own transaction would put a commit (and an fsync)
 * per ping in front of every other request. So reports change this memory only, and a flush
 * writes what changed since the last one in a single transaction (presence/flush.ts runs it
 * periodically, closeContext once more at the end). Reads are answered from memory.
 *
 * A realm's memory is loaded from the store the first time it is needed (a cold realm after a
 * restart, or an embedder that never starts the flush timer), so answers are right without
 * any timer. Memory holds at most one entry per user of the realm.
 *
 * The nodes of a cluster keep their memories in step through the store: see presence/cluster.ts.
 */
import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import type { Tx, UserPresence } from '../storage/types.js';
import { shareClusterPresence } from './cluster.js';

/** A report a cluster node took and has not stored yet (presence/cluster.ts). */
export interface PendingPresence {
  entry: UserPresence;
  /** Set by a presence_enabled change: the entry replaces the stored one instead of merging with it. */
  replace: boolean;
}

/** One realm's presence: the live entries, the sequence and what the store does not have yet. */
export class RealmPresence {
  /**
   * By user ID. An entry is replaced, never changed in place, so a flush can keep it as it was.
   * On a cluster node these are the entries as stored, with the cluster's sequence values.
   */
  readonly entries = new Map<number, UserPresence>();
  /** The highest `last_update_id` handed out (on a cluster node: the highest known stored). */
  lastUpdateId = 0;
  /** Users whose entry changed since it was last written. */
  readonly unsaved = new Set<number>();
  /**
   * On a cluster node only: this node's reports not stored yet, by user ID. They wait outside
   * `entries` because the sequence value is handed out when they are stored, for every node.
   */
  readonly pending: Map<number, PendingPresence> | undefined;

  constructor(
    readonly realmId: number,
    shared = false,
  ) {
    if (shared) this.pending = new Map();
  }

  /** The user's newest presence this node knows: its own report not stored yet, else the stored one. */
  latest(userId: number): UserPresence | undefined {
    return this.pending?.get(userId)?.entry ?? this.entries.get(userId);
  }

  /**
   * Stores a new entry for its user under the next sequence value, and returns it. On a
   * cluster node the entry waits in `pending` under the current value until it is stored.
   */
  put(entry: Omit<UserPresence, 'lastUpdateId'>, replace = false): UserPresence {
    if (this.pending) {
      const held = { ...entry, lastUpdateId: this.lastUpdateId };
      // A report right after a replacement builds on it: it replaces as well.
      this.pending.set(entry.userId, { entry: held, replace: replace || (this.pending.get(entry.userId)?.replace ?? false) });
      return held;
    }
    const stored = { ...entry, lastUpdateId: ++this.lastUpdateId };
    this.entries.set(entry.userId, stored);
    this.unsaved.add(entry.userId);
    return stored;
  }
}

interface Memory {
  realms: Map<number, RealmPresence>;
  /** Loads under way without a caller's transaction, so that concurrent callers share one. */
  loading: Map<number, Promise<RealmPresence>>;
  /** The flush running now, if any: flushes run one at a time. */
  flushing: Promise<unknown>;
}

const MEMORIES = new WeakMap<Ctx, Memory>();

function memoryOf(ctx: Ctx): Memory {
  let memory = MEMORIES.get(ctx);
  if (!memory) MEMORIES.set(ctx, (memory = { realms: new Map(), loading: new Map(), flushing: Promise.resolve() }));
  return memory;
}

async function loadWith(ctx: Ctx, tx: Tx, realmId: number): Promise<RealmPresence> {
  const realm = new RealmPresence(realmId, ctx.cluster !== undefined);
  for (const row of await tx.presence.list(realmId)) realm.entries.set(row.userId, row);
  realm.lastUpdateId = await tx.presence.lastUpdateId(realmId);
  return realm;
}

/** Keeps the first realm memory installed: a load that finished later never replaces live state. */
function install(memory: Memory, loaded: RealmPresence): RealmPresence {
  const existing = memory.realms.get(loaded.realmId);
  if (existing) return existing;
  memory.realms.set(loaded.realmId, loaded);
  return loaded;
}

/**
 * The realm's presence memory, loading it from the store if this is its first use. Inside an
 * operation, pass its `tx` (a storage call from inside the callback would wait for itself).
 */
export async function realmPresence(ctx: Ctx, realmId: number, tx?: Tx): Promise<RealmPresence> {
  const memory = memoryOf(ctx);
  const known = memory.realms.get(realmId);
  if (known) return known;
  if (tx) return install(memory, await loadWith(ctx, tx, realmId));
  let loading = memory.loading.get(realmId);
  if (!loading) {
    loading = ctx.storage.read((read) => loadWith(ctx, read, realmId)).then((loaded) => install(memory, loaded));
    memory.loading.set(realmId, loading);
    void loading.finally(() => memory.loading.delete(realmId)).catch(() => undefined);
  }
  return loading;
}

/**
 * Writes every entry changed since the last flush, for all realms, in one transaction. An
 * entry changed again while the write runs stays unsaved for the next flush; a failed write
 * leaves everything it held unsaved. Flushes run one after another. On a cluster node a flush
 * also takes in what the other nodes stored (presence/cluster.ts), unless the node is `closing`
 * (closeContext's last flush: the store may be shared, and closed already by another context).
 */
export function flushPresence(ctx: Ctx, options: { closing?: boolean } = {}): Promise<number> {
  const memory = MEMORIES.get(ctx);
  if (!memory) return Promise.resolve(0);
  const write = () => (ctx.cluster ? shareClusterPresence(ctx, memory.realms.values(), !options.closing) : writeUnsaved(ctx, memory));
  const run = memory.flushing.catch(() => undefined).then(write);
  memory.flushing = run;
  return run;
}

/** Writes the unsaved entries; resolves to how many were written. */
async function writeUnsaved(ctx: Ctx, memory: Memory): Promise<number> {
  const batches: { realm: RealmPresence; rows: UserPresence[]; lastUpdateId: number }[] = [];
  for (const realm of memory.realms.values()) {
    if (realm.unsaved.size === 0) continue;
    const rows = [...realm.unsaved].map((id) => realm.entries.get(id)!);
    realm.unsaved.clear();
    batches.push({ realm, rows, lastUpdateId: realm.lastUpdateId });
  }
  if (batches.length === 0) return 0;
  try {
    await ctx.storage.transaction(async (tx) => {
      for (const { realm, rows, lastUpdateId } of batches) await tx.presence.save(realm.realmId, rows, lastUpdateId);
      return ok(undefined);
    });
    return batches.reduce((sum, batch) => sum + batch.rows.length, 0);
  } catch (error) {
    // Not written: mark the rows unsaved again unless a newer entry already is.
    for (const { realm, rows } of batches) for (const row of rows) realm.unsaved.add(row.userId);
    throw error;
  }
}

/** How many entries wait for the next flush, over all realms (for tests and operators). */
export function unsavedPresenceCount(ctx: Ctx): number {
  let count = 0;
  for (const realm of MEMORIES.get(ctx)?.realms.values() ?? []) count += realm.unsaved.size + (realm.pending?.size ?? 0);
  return count;
}
