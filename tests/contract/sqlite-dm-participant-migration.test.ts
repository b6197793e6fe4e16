/** The dm_participant migration's backfill: conversations stored before it get their participants. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { DM_PARTICIPANTS_MIGRATION } from '../../packages/core/src/storage/sqlite/dm-participant-schema.js';
import { MIGRATIONS } from '../../packages/core/src/storage/sqlite/migrations.js';
import { openRaw } from './core-deps.js';
import { commit, seed } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'teamchat-dm-participants-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite driver: the dm_participant migration', () => {
  it('is in the migration list and fills the table from the conversations already stored', async () => {
    expect(MIGRATIONS).toContain(DM_PARTICIPANTS_MIGRATION);
    const file = join(dir, 'dms.sqlite');
    let storage = createSqliteStorage({ filename: file });
    const { realm, users } = await seed(storage, [{}, {}, {}]);
    const [a, b, c] = users.map((u) => u.id) as [number, number, number];
    const dm = (participants: number[]) =>
      commit(storage, (tx) =>
        tx.messages.insert(
          {
            realmId: realm.id, senderId: a, type: 'private', streamId: null, topic: '', dmKey: participants.join(','),
            content: 'x', renderedContent: '<p>x</p>', dateSent: 1_700_000_000, sendingClient: 'test', lastEditTime: null,
            lastMovedTime: null, editHistory: [], hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
          },
          participants.map((userId) => ({ userId, flags: 0 })),
        ),
      );
    const pair = await dm([a, b].sort((x, y) => x - y));
    const group = await dm([a, b, c].sort((x, y) => x - y));
    const self = await dm([c]);
    await storage.close();

    // The database as it was before the migration: no participants table. Then the migration.
    const raw = openRaw(file);
    raw.exec('DROP TABLE dm_participant');
    raw.exec(DM_PARTICIPANTS_MIGRATION);
    raw.close();

    storage = createSqliteStorage({ filename: file });
    const recent = (userId: number) => storage.read((tx) => tx.messages.recentDmConversations(realm.id, userId, 10));
    expect((await recent(a)).map((r) => r.maxMessageId)).toEqual([group.id, pair.id]);
    expect((await recent(b)).map((r) => r.maxMessageId)).toEqual([group.id, pair.id]);
    expect((await recent(c)).map((r) => r.maxMessageId)).toEqual([self.id, group.id]);
    await storage.close();
  });
});
