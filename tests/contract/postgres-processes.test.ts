/**
 * The PostgreSQL driver's guarantees across processes: several drivers (as several `teamchat
 * serve` processes would open) on one database. Write transactions of different drivers never
 * interleave (the shared advisory lock), so read-modify-write loses no update and a unique
 * claim succeeds once; each driver reads the others' commits.
 */
import { createPostgresStorage } from '@teamchat/postgres';
import type { Storage } from '@teamchat/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresTestDatabase } from '../helpers/storage.js';
import { err, ok } from './core-deps.js';
import { seed } from './fixtures.js';

describe('postgres driver: several processes on one database', () => {
  let drivers: Storage[] = [];
  beforeEach(async () => {
    const url = await postgresTestDatabase();
    drivers = [0, 1, 2].map(() => createPostgresStorage({ url, readConnections: 1 }));
  });
  afterEach(async () => {
    await Promise.all(drivers.map((driver) => driver.close()));
  });

  it('concurrent read-modify-write transactions from three drivers lose no update', async () => {
    const { realm } = await seed(drivers[0]!);
    const increments = drivers.flatMap((driver) =>
      Array.from({ length: 30 }, () =>
        driver.transaction(async (tx) => {
          const current = await tx.realms.byId(realm.id);
          // A pause between the read and the write: another process's writer would slip in here without the lock.
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.realms.update(realm.id, { name: String(Number(current!.name) + 1 || 1) });
          return ok(undefined);
        }),
      ),
    );
    await Promise.all(increments);
    for (const driver of drivers) expect((await driver.read((tx) => tx.realms.byId(realm.id)))!.name).toBe('90');
  });

  it('a claim checked and written in one transaction succeeds once across drivers (an invitation accepted twice)', async () => {
    const { realm, users } = await seed(drivers[0]!, [{}]);
    const user = users[0]!;
    const invitation = await drivers[0]!.transaction(async (tx) =>
      ok(
        (await tx.invitations.insert(realm.id, {
          referrerId: user.id,
          email: 'new@example.com',
          inviteAs: 400,
          streamIds: [],
          groupIds: [],
          includeRealmDefaultSubscriptions: true,
          notifyReferrerOnJoin: false,
          welcomeMessageCustomText: null,
          invitedAt: 1,
          expiresAt: null,
          key: 'the-key',
        }))!,
      ),
    );
    const accept = (driver: Storage) =>
      driver.transaction(async (tx) => {
        const found = await tx.invitations.byKey(realm.id, 'the-key');
        if (found?.status !== 'pending') return err('used');
        await new Promise((resolve) => setTimeout(resolve, 2));
        await tx.invitations.updatePending(realm.id, found.id, { status: 'used' });
        return ok('accepted');
      });
    const results = await Promise.all(drivers.flatMap((driver) => [accept(driver), accept(driver)]));
    expect(results.filter((r) => r.isOk())).toHaveLength(1);
    expect((await drivers[2]!.read((tx) => tx.invitations.byKey(realm.id, 'the-key')))!.id).toBe(invitation._unsafeUnwrap().id);
  });

  it('a unique row inserted by two drivers at once exists once (a reaction added twice)', async () => {
    const { realm, users } = await seed(drivers[0]!, [{}]);
    const user = users[0]!;
    const message = await drivers[0]!.transaction(async (tx) =>
      ok(
        await tx.messages.insert(
          {
            realmId: realm.id,
            senderId: user.id,
            type: 'private',
            streamId: null,
            topic: '',
            dmKey: String(user.id),
            content: 'hi',
            renderedContent: '<p>hi</p>',
            dateSent: 1,
            sendingClient: 'test',
            lastEditTime: null,
            lastMovedTime: null,
            editHistory: [],
            hasLink: false,
            hasImage: false,
            hasAttachment: false,
            isMeMessage: false,
          },
          [{ userId: user.id, flags: 0 }],
        ),
      ),
    );
    const reaction = { messageId: message._unsafeUnwrap().id, userId: user.id, emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji' as const };
    const add = (driver: Storage) =>
      driver.transaction(async (tx) => {
        const existing = await tx.reactions.forMessages([reaction.messageId]);
        if (existing.length > 0) return err('exists');
        await tx.reactions.add(realm.id, reaction);
        return ok('added');
      });
    const results = await Promise.allSettled(drivers.map(add));
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.isOk())).toHaveLength(1);
    expect(await drivers[1]!.read((tx) => tx.reactions.forMessages([reaction.messageId]))).toHaveLength(1);
  });
});
