/**
 * Presence on two contexts of an in-process cluster over one storage (both drivers): what a
 * node holds before its flush, and a flush that fails. The PostgreSQL nodes over HTTP are in
 * tests/cluster/presence-cluster.test.ts.
 */
import {
  createContext,
  createMemoryCluster,
  type Ctx,
  doUpdatePresence,
  flushPresence,
  getUserPresence,
  type Storage,
  unsavedPresenceCount,
} from '@teamchat/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, must, TEST_PASSWORD_HASH_COST } from '../helpers/core.js';
import { fakeClock, T0 } from './fixtures.js';

const S0 = Math.floor(T0 / 1000);

const contexts: Ctx[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.cluster?.close();
});

/**
 * Node `a` of a world, and node `b` over the same storage, whose write transactions fail while
 * `failing.writes` is set.
 */
async function twoNodes() {
  const cluster = createMemoryCluster();
  const clock = fakeClock();
  const w = await makeWorld({ clock, cluster: cluster.join('a', 'http://a.internal'), config: { timers: false } });
  const failing = { writes: false };
  const shared = w.ctx.storage;
  const storage: Storage = {
    read: (fn) => shared.read(fn),
    transaction: (fn) => (failing.writes ? Promise.reject(new Error('database unreachable')) : shared.transaction(fn)),
    close: () => Promise.resolve(),
  };
  const b = createContext({ storage, clock, cluster: cluster.join('b', 'http://b.internal'), config: { timers: false, passwordHashCost: TEST_PASSWORD_HASH_COST } });
  contexts.push(w.ctx, b);
  const mel = await w.addUser({ email: 'mel@example.com', fullName: 'Mel' });
  return { w, a: w.ctx, b, mel, failing };
}

describe('presence on cluster nodes sharing one store', () => {
  it('holds a node’s report until its flush stores it, then every node answers it', async () => {
    const { w, a, b, mel } = await twoNodes();
    must(await doUpdatePresence(b, w.as(mel), { status: 'active' }));
    expect(unsavedPresenceCount(b)).toBe(1);
    // Not stored yet: no node answers it, the one that took it included.
    for (const ctx of [a, b]) expect((await getUserPresence(ctx, w.as(w.owner), { user_id_or_email: String(mel.id) })).isErr()).toBe(true);
    expect(await flushPresence(b)).toBe(1);
    expect(unsavedPresenceCount(b)).toBe(0);
    await flushPresence(a);
    for (const ctx of [a, b]) {
      const answer = must(await getUserPresence(ctx, w.as(w.owner), { user_id_or_email: String(mel.id), slim_presence: true }));
      expect(answer).toEqual({ presence: { active_timestamp: S0, idle_timestamp: S0 } });
    }
  });

  it('keeps the reports of a failed flush pending and stores them with the next one', async () => {
    const { w, a, b, mel, failing } = await twoNodes();
    must(await doUpdatePresence(b, w.as(mel), { status: 'active' }));
    failing.writes = true;
    await expect(flushPresence(b)).rejects.toThrow('database unreachable');
    expect(unsavedPresenceCount(b)).toBe(1);
    failing.writes = false;
    expect(await flushPresence(b)).toBe(1);
    await flushPresence(a);
    expect(must(await getUserPresence(a, w.as(w.owner), { user_id_or_email: String(mel.id), slim_presence: true }))).toEqual({
      presence: { active_timestamp: S0, idle_timestamp: S0 },
    });
  });

  it('spends no sequence value on a report older than what another node stored', async () => {
    const { w, a, b, mel } = await twoNodes();
    must(await doUpdatePresence(a, w.as(mel), { status: 'active' }));
    await flushPresence(a);
    // b has not read a's row: its report, made at the same second, is news to it only.
    must(await doUpdatePresence(b, w.as(mel), { status: 'active' }));
    expect(await flushPresence(b)).toBe(0);
    expect(await w.ctx.storage.read((tx) => tx.presence.lastUpdateId(w.realm.id))).toBe(1);
  });
});
