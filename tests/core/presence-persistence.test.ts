/**
 * Presence kept in memory and written in batches (presence/memory.ts): a flush writes every
 * change in one transaction, a clean close loses nothing, a crash loses at most what came
 * after the last flush, a cold realm loads lazily (no timer needed), and the flush timer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  closeContext,
  type Ctx,
  doRegister,
  doUpdatePresence,
  flushPresence,
  getRealmPresence,
  type Storage,
  startPresenceFlush,
  unsavedPresenceCount,
  type User,
} from '@teamchat/core/internal';
import { createSqliteContext } from '@teamchat/core/sqlite';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { fakeClock } from './fixtures.js';
import { ping, presenceWorld, S0 } from './presence-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-presence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const nextFile = () => join(dir, `presence${++files}.sqlite`);

/** A caller over a context opened anew: the realm and user as that context's store has them. */
async function callerIn(ctx: Ctx, realmId: number, userId: number) {
  return ctx.storage.read(async (tx) => ({ realm: (await tx.realms.byId(realmId))!, user: (await tx.users.byId(realmId, userId))! }));
}

async function slimPresences(ctx: Ctx, viewer: User, extra: Record<string, unknown> = {}) {
  const caller = await callerIn(ctx, viewer.realmId, viewer.id);
  return must(await doUpdatePresence(ctx, caller, { status: 'idle', slim_presence: true, ...extra })) as { presences: Record<string, unknown>; presence_last_update_id: number };
}

describe('presence persistence', () => {
  it('survives closing and reopening the same SQLite file; the sequence continues', async () => {
    const file = nextFile();
    const p = await presenceWorld({ databaseFile: file });
    await ping(p.w, p.member);
    p.advance(60);
    await ping(p.w, p.other, 'idle');
    expect(unsavedPresenceCount(p.w.ctx)).toBe(2);
    await flushPresence(p.w.ctx);
    expect(unsavedPresenceCount(p.w.ctx)).toBe(0);
    p.advance(60);
    await ping(p.w, p.member);
    // Not flushed by hand: closeContext writes it.
    await closeContext(p.w.ctx);

    const reopened = createSqliteContext({ databaseFile: file, clock: p.clock, config: { timers: false } });
    try {
      const answer = await slimPresences(reopened, p.admin, { last_update_id: '-1' });
      expect(answer.presences).toEqual({
        [p.member.id]: { active_timestamp: S0 + 120, idle_timestamp: S0 + 120 },
        [p.other.id]: { active_timestamp: S0, idle_timestamp: S0 + 60 },
        [p.admin.id]: { active_timestamp: S0, idle_timestamp: S0 + 120 },
      });
      // Member 3, other 2, the admin's own report 4: the sequence went on from the stored value.
      expect(answer.presence_last_update_id).toBe(4);
    } finally {
      await closeContext(reopened);
    }
  });

  it('after a crash (the store closed without a flush) only what came after the last flush is lost', async () => {
    const file = nextFile();
    const p = await presenceWorld({ databaseFile: file });
    await ping(p.w, p.member);
    await flushPresence(p.w.ctx);
    await ping(p.w, p.other);
    await p.w.ctx.storage.close();
    const reopened = createSqliteContext({ databaseFile: file, clock: p.clock, config: { timers: false } });
    try {
      const answer = await slimPresences(reopened, p.admin, { history_limit_days: '1' });
      expect(Object.keys(answer.presences).sort()).toEqual([p.member.id, p.admin.id].map(String).sort());
    } finally {
      await closeContext(reopened);
    }
  });

  it('loads a cold realm lazily, whether its first readers are parallel requests or a register snapshot', async () => {
    const file = nextFile();
    const p = await presenceWorld({ databaseFile: file });
    await ping(p.w, p.member);
    await closeContext(p.w.ctx);
    for (const first of ['parallel requests', 'register'] as const) {
      const ctx = createSqliteContext({ databaseFile: file, clock: p.clock, config: { timers: false } });
      const caller = await callerIn(ctx, p.w.realm.id, p.other.id);
      if (first === 'register') {
        const state = must(await doRegister(ctx, caller, { fetch_event_types: ["presence"], slim_presence: true })) as { presences: object };
        expect(Object.keys(state.presences)).toEqual([String(p.member.id)]);
      } else {
        const answers = await Promise.all([1, 2, 3].map(() => getRealmPresence(ctx, caller, {})));
        for (const answer of answers) expect(Object.keys((must(answer)).presences)).toEqual(['mel@example.com']);
      }
      expect(unsavedPresenceCount(ctx)).toBe(0);
      await closeContext(ctx);
    }
  });

  it('keeps entries unsaved when a flush fails, and writes them with the next one', async () => {
    const inner = createSqliteStorage();
    let failNext = false;
    const storage: Storage = {
      transaction: (fn) => {
        if (!failNext) return inner.transaction(fn);
        failNext = false;
        return Promise.reject(new Error('disk full'));
      },
      read: (fn) => inner.read(fn),
      close: () => inner.close(),
    };
    const p = await presenceWorld({ storage });
    await ping(p.w, p.member);
    failNext = true;
    await expect(flushPresence(p.w.ctx)).rejects.toThrow('disk full');
    expect(unsavedPresenceCount(p.w.ctx)).toBe(1);
    await flushPresence(p.w.ctx);
    expect(unsavedPresenceCount(p.w.ctx)).toBe(0);
    expect(await inner.read((tx) => tx.presence.list(p.w.realm.id))).toEqual([{ userId: p.member.id, lastActiveTime: S0, lastConnectedTime: S0, lastUpdateId: 1 }]);
    await closeContext(p.w.ctx);
  });

  it('the flush timer writes changes every interval until stopped', async () => {
    const p = await presenceWorld();
    const job = startPresenceFlush(p.w.ctx, { intervalMs: 10 });
    try {
      await ping(p.w, p.member);
      await ping(p.w, p.other);
      // The count drops when a flush takes the changes; they are readable once its commit is.
      const saved = async () => (await p.w.ctx.storage.read((tx) => tx.presence.list(p.w.realm.id))).map((row) => row.userId);
      await expect.poll(saved, { timeout: 2000, interval: 10 }).toEqual([p.member.id, p.other.id]);
      expect(unsavedPresenceCount(p.w.ctx)).toBe(0);
      expect(await p.w.ctx.storage.read((tx) => tx.presence.lastUpdateId(p.w.realm.id))).toBe(2);
    } finally {
      job.stop();
      await job.idle();
    }
    await ping(p.w, p.admin);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(unsavedPresenceCount(p.w.ctx)).toBe(1);
    await closeContext(p.w.ctx);
  });

  it('holds one entry per user however often they report', async () => {
    const p = await presenceWorld({ clock: fakeClock() });
    for (let i = 0; i < 50; i++) {
      p.advance(61);
      await ping(p.w, p.member, i % 2 ? 'active' : 'idle', { ping_only: 'true' });
    }
    expect(unsavedPresenceCount(p.w.ctx)).toBe(1);
    await flushPresence(p.w.ctx);
    expect(await p.w.ctx.storage.read((tx) => tx.presence.list(p.w.realm.id))).toHaveLength(1);
  });
});
