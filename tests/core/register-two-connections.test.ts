/**
 * register's snapshot and its queue's events with the SQLite driver on a file, where reads run
 * on their own connection and do not wait for writes: a change that commits while a client
 * registers is in the snapshot or in the queue, never in neither and never in both. For human
 * users and for bots, whose queue defaults register reads first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeContext, doRegister, doUpdateUser, getEvents, type QueuedEvent, type RegisterResponse, type User } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { makeWorld, must, queueIdOf, type World } from '../helpers/core.js';
import { applyEvents, normalized } from './apply-events.js';
import { withLatency } from '../contract/fixtures.js';
import { fakeClock } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-register-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function register(w: World, user: User): Promise<RegisterResponse> {
  return must(await doRegister(w.ctx, w.as(user), { fetch_event_types: ["realm_user"] }));
}

describe('a snapshot and its queue, reads on their own connection', () => {
  it('neither miss nor repeat a change that commits while registering', async () => {
    // Statements pause for a timer now and then, so commits land between a read's statements.
    const storage = withLatency(createSqliteStorage({ filename: join(dir, 'register.sqlite') }));
    const w = await makeWorld({ storage, clock: fakeClock(), config: { timers: false } });
    try {
      const admin = await w.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
      const member = await w.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
      const bot = await w.addUser({ email: 'mel-bot@example.com', fullName: 'Mel Bot', bot: true, botOwnerId: member.id });
      const registrations: { user: User; state: Promise<RegisterResponse> }[] = [];
      const updates: Promise<unknown>[] = [];
      for (let n = 1; n <= 30; n++) {
        registrations.push({ user: n % 2 ? member : bot, state: register(w, n % 2 ? member : bot) });
        updates.push(doUpdateUser(w.ctx, w.as(admin), { user_id: member.id, full_name: `Name ${n}` }));
      }
      await Promise.all(updates);
      const stored = await w.ctx.storage.read((tx) => tx.users.list(w.realm.id));
      const counts = new Set<number>();
      for (const { user, state } of registrations) {
        const registered = await state;
        const polled = must(await getEvents(w.ctx, w.as(user), { queue_id: queueIdOf(registered), dont_block: true }));
        counts.add(polled.events.length);
        // Exactly the renames after the one in the snapshot, each once: the final state alone
        // would not show a missed rename, since the last one wins.
        const inSnapshot = registered.realm_users?.find((u) => u.user_id === member.id)?.full_name ?? '';
        const seen = Number(/^Name (\d+)$/.exec(inSnapshot)?.[1] ?? 0);
        const renames = polled.events.flatMap((e) => {
          const person = (e as { person?: { user_id: number; full_name?: string } }).person;
          return e.type === 'realm_user' && person?.user_id === member.id && person.full_name ? [person.full_name] : [];
        });
        expect(renames, `${user.fullName} registered at ${inSnapshot}`).toEqual(Array.from({ length: 30 - seen }, (_, i) => `Name ${seen + i + 1}`));
        const applied = await applyEvents(registered, polled.events, {
          clientGravatar: true,
          emailPublic: (id) => stored.find((u) => u.id === id)?.emailAddressVisibility === 1,
          webPublicAccess: false,
          refetchBots: async () => [],
        });
        expect(normalized(applied)).toEqual(normalized(await register(w, user)));
        expect(applied.realm_users.find((u: { user_id: number }) => u.user_id === member.id).full_name).toBe('Name 30');
      }
      // The registrations did interleave with the updates.
      expect(counts.size).toBeGreaterThan(1);
    } finally {
      await closeContext(w.ctx);
    }
  });
});
