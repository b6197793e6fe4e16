/**
 * Presence on the nodes of a cluster (several processes on one database). Each node keeps its
 * memory (presence/memory.ts) so that a report costs no transaction, and the store is where
 * the nodes meet: about once a second (CLUSTER_PRESENCE_SYNC_MS, the flush timer's interval on
 * a cluster) each node writes the reports it took, numbering them with the realm's sequence
 * inside the write transaction, then reads what every node stored since the sequence value
 * it knows. Write transactions run one at a time across the cluster (the PostgreSQL driver's
 * lock), so the numbers are handed out in commit order and `last_update_id > n` misses nothing.
 *
 * Why not apply each report as it is heard: reports rarely produce an event (only a user who
 * comes online is announced), and `last_update_id` must mean the same on every node, which a
 * per-node counter cannot. Why not a transaction per report: every report would then wait for
 * the cluster's write lock. One write and one read per node and second keep both.
 */
import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import type { Tx, UserPresence } from '../storage/types.js';
import type { PendingPresence, RealmPresence } from './memory.js';

/** How often a cluster node stores its reports and reads the others': reads agree within this. */
export const CLUSTER_PRESENCE_SYNC_MS = 1000;

/** The later of two times, a missing one being the older. */
function later(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

/**
 * What to store for a report, given what is stored: times only move forward (another node may
 * have stored a newer report of the same user), unless the report replaces the entry.
 */
function merged(pending: PendingPresence, stored: UserPresence | undefined): Omit<UserPresence, 'lastUpdateId'> | undefined {
  const { userId, lastActiveTime, lastConnectedTime } = pending.entry;
  if (!stored || pending.replace) return { userId, lastActiveTime, lastConnectedTime };
  const next = { userId, lastActiveTime: later(lastActiveTime, stored.lastActiveTime), lastConnectedTime: Math.max(lastConnectedTime, stored.lastConnectedTime) };
  // Nothing newer than what is stored: no sequence value is spent on it.
  return next.lastActiveTime === stored.lastActiveTime && next.lastConnectedTime === stored.lastConnectedTime ? undefined : next;
}

/** Stores one realm's pending reports under the next sequence values. */
async function storePending(tx: Tx, realmId: number, pending: PendingPresence[]): Promise<number> {
  const stored = new Map((await tx.presence.listUsers(realmId, pending.map((p) => p.entry.userId))).map((row) => [row.userId, row]));
  let next = await tx.presence.lastUpdateId(realmId);
  const rows: UserPresence[] = [];
  for (const report of pending) {
    const row = merged(report, stored.get(report.entry.userId));
    if (row) rows.push({ ...row, lastUpdateId: ++next });
  }
  if (rows.length > 0) await tx.presence.save(realmId, rows, next);
  return rows.length;
}

/** Writes every realm's pending reports in one transaction; a failed write keeps them pending. */
async function writePending(ctx: Ctx, realms: RealmPresence[]): Promise<number> {
  const batches: { realm: RealmPresence; reports: PendingPresence[] }[] = [];
  for (const realm of realms) {
    if (!realm.pending?.size) continue;
    batches.push({ realm, reports: [...realm.pending.values()] });
    realm.pending.clear();
  }
  if (batches.length === 0) return 0;
  try {
    return await ctx.storage.transaction(async (tx) => {
      let written = 0;
      for (const { realm, reports } of batches) written += await storePending(tx, realm.realmId, reports);
      return ok(written);
    }).then((result) => result.unwrapOr(0));
  } catch (error) {
    // Not written: pending again, unless a newer report of the user came in meanwhile.
    for (const { realm, reports } of batches) for (const report of reports) if (!realm.pending!.has(report.entry.userId)) realm.pending!.set(report.entry.userId, report);
    throw error;
  }
}

/** Takes in what every node stored since each realm's known sequence value, from one snapshot. */
async function readStored(ctx: Ctx, realms: RealmPresence[]): Promise<void> {
  if (realms.length === 0) return;
  await ctx.storage.read(async (tx) => {
    for (const realm of realms) {
      const changed = await tx.presence.listChanged(realm.realmId, realm.lastUpdateId);
      const newest = await tx.presence.lastUpdateId(realm.realmId);
      for (const row of changed) realm.entries.set(row.userId, row);
      realm.lastUpdateId = Math.max(realm.lastUpdateId, newest);
    }
  });
}

/**
 * A cluster node's flush: stores its reports, then (when `takeIn`) reads every node's.
 * Resolves to how many entries it wrote.
 */
export async function shareClusterPresence(ctx: Ctx, realms: Iterable<RealmPresence>, takeIn: boolean): Promise<number> {
  const list = [...realms];
  const written = await writePending(ctx, list);
  if (takeIn) await readStored(ctx, list);
  return written;
}
