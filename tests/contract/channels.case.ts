/**
 * The channel stores of the storage contract (streams, subscriptions, default channels), run by
 * storage.case.ts for every driver: the documented behaviour of channel-types.ts.
 */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { err, ok } from './core-deps.js';
import { commit, newMail, newStream, newSubscription, seed } from './fixtures.js';

export function describeChannelStores(storage: () => Storage): void {
  describe('streams', () => {
    it('insert round-trips every field; byId, byName and list find the channel', async () => {
      const { realm, users: [creator] } = await seed(storage(), [{}]);
      const input = newStream(realm.id, {
        name: 'Ünïcode Café',
        creatorId: creator!.id,
        inviteOnly: true,
        isWebPublic: false,
        historyPublicToSubscribers: false,
        isArchived: true,
        messageRetentionDays: -1,
        firstMessageId: 42,
        topicsPolicy: 'disable_empty_topic',
        isRecentlyActive: false,
        folderId: 7,
        defaultPushNotifications: true,
        groupSettings: { can_send_message_group: 'role:members', can_administer_channel_group: { direct_members: [creator!.id], direct_subgroups: ['role:moderators'] } },
      });
      const stream = await commit(storage(), (tx) => tx.streams.insert(input));
      expect(stream).toEqual({ ...input, id: expect.any(Number) });
      const other = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      await storage().read(async (tx) => {
        expect(await tx.streams.byId(realm.id, stream.id)).toEqual(stream);
        expect(await tx.streams.byName(realm.id, 'Ünïcode Café')).toEqual(stream);
        expect(await tx.streams.list(realm.id)).toEqual([stream, other]);
        expect(await tx.streams.list(realm.id, [other.id, stream.id, other.id])).toEqual([stream, other]);
        expect(await tx.streams.list(realm.id, [])).toEqual([]);
        expect(await tx.streams.byId(realm.id, other.id + 1000)).toBeUndefined();
        expect(await tx.streams.byName(realm.id, 'nope')).toBeUndefined();
      });
    });

    it('byName ignores case, for every script, and does not trim', async () => {
      const { realm } = await seed(storage());
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id, { name: 'Straße Ωmega' })));
      await storage().read(async (tx) => {
        expect(await tx.streams.byName(realm.id, 'STRASSE ΩMEGA')).toBeUndefined();
        expect(await tx.streams.byName(realm.id, 'straße ωmega')).toEqual(stream);
        expect(await tx.streams.byName(realm.id, 'STRAßE ΩMEGA')).toEqual(stream);
        expect(await tx.streams.byName(realm.id, ' straße ωmega')).toBeUndefined();
      });
    });

    it('refuses a second channel with the same name in any case, but not across realms', async () => {
      const { realm } = await seed(storage());
      await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id, { name: 'Denmark' })));
      const insert = (realmId: number, name: string) =>
        storage().transaction(async (tx) => ok(await tx.streams.insert(newStream(realmId, { name }))));
      await expect(insert(realm.id, 'DENMARK')).rejects.toThrow();
      await expect(insert(realm.id, 'Denmark')).rejects.toThrow();
      const { realm: other } = await seed(storage());
      expect((await insert(other.id, 'denmark')).isOk()).toBe(true);
      expect(await storage().read((tx) => tx.streams.list(realm.id))).toHaveLength(1);
    });

    it('update sets the given fields (booleans, JSON, nulls), keeps the rest, and renames case-insensitively', async () => {
      const { realm } = await seed(storage());
      const [a, b] = await commit(storage(), async (tx) => [
        await tx.streams.insert(newStream(realm.id, { name: 'alpha' })),
        await tx.streams.insert(newStream(realm.id, { name: 'beta', firstMessageId: 3 })),
      ]);
      await commit(storage(), (tx) =>
        tx.streams.update(realm.id, a!.id, {
          name: 'ALPHA',
          inviteOnly: true,
          historyPublicToSubscribers: false,
          groupSettings: { can_send_message_group: 'role:administrators' },
          description: undefined,
        }),
      );
      await commit(storage(), (tx) => tx.streams.update(realm.id, b!.id, { firstMessageId: null, isArchived: true }));
      await commit(storage(), (tx) => tx.streams.update(realm.id, a!.id, {}));
      await storage().read(async (tx) => {
        expect(await tx.streams.byId(realm.id, a!.id)).toEqual({
          ...a,
          name: 'ALPHA',
          inviteOnly: true,
          historyPublicToSubscribers: false,
          groupSettings: { can_send_message_group: 'role:administrators' },
        });
        expect(await tx.streams.byName(realm.id, 'alpha')).toEqual(expect.objectContaining({ id: a!.id }));
        expect(await tx.streams.byId(realm.id, b!.id)).toEqual({ ...b, firstMessageId: null, isArchived: true });
      });
      await expect(commit(storage(), (tx) => tx.streams.update(realm.id, b!.id, { name: 'Alpha' }))).rejects.toThrow();
    });

    it('a channel of realm A is neither found nor changed through realm B', async () => {
      const { realm: a } = await seed(storage());
      const { realm: b } = await seed(storage());
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(a.id, { name: 'secret' })));
      await commit(storage(), (tx) => tx.streams.update(b.id, stream.id, { name: 'hijacked' }));
      await storage().read(async (tx) => {
        expect(await tx.streams.byId(b.id, stream.id)).toBeUndefined();
        expect(await tx.streams.byName(b.id, 'secret')).toBeUndefined();
        expect(await tx.streams.list(b.id, [stream.id])).toEqual([]);
        expect(await tx.streams.byId(a.id, stream.id)).toEqual(stream);
      });
    });
  });

  describe('subscriptions', () => {
    it('upsert inserts, then replaces every field; get finds the row active or not', async () => {
      const { realm, users: [user] } = await seed(storage(), [{}]);
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      const first = newSubscription(realm.id, user!.id, stream.id, { desktopNotifications: true, wildcardMentionsNotify: false });
      await commit(storage(), (tx) => tx.subscriptions.upsert(first));
      expect(await storage().read((tx) => tx.subscriptions.get(realm.id, user!.id, stream.id))).toEqual(first);
      const second = { ...first, active: false, color: '#e4523d', isMuted: true, pinToTop: true, desktopNotifications: null, pushNotifications: false };
      await commit(storage(), (tx) => tx.subscriptions.upsert(second));
      await storage().read(async (tx) => {
        expect(await tx.subscriptions.get(realm.id, user!.id, stream.id)).toEqual(second);
        expect(await tx.subscriptions.forUser(realm.id, user!.id)).toEqual([second]);
        expect(await tx.subscriptions.get(realm.id, user!.id, stream.id + 1000)).toBeUndefined();
      });
    });

    it('update sets the given fields of an existing row, nulls included, and creates nothing', async () => {
      const { realm, users: [user, other] } = await seed(storage(), [{}, {}]);
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      const row = newSubscription(realm.id, user!.id, stream.id, { emailNotifications: true });
      await commit(storage(), (tx) => tx.subscriptions.upsert(row));
      await commit(storage(), (tx) =>
        tx.subscriptions.update(realm.id, user!.id, stream.id, { emailNotifications: null, audibleNotifications: false, color: '#a6c7e5', isMuted: undefined }),
      );
      await commit(storage(), (tx) => tx.subscriptions.update(realm.id, other!.id, stream.id, { active: false }));
      await commit(storage(), (tx) => tx.subscriptions.update(realm.id, user!.id, stream.id, {}));
      await storage().read(async (tx) => {
        expect(await tx.subscriptions.get(realm.id, user!.id, stream.id)).toEqual({
          ...row,
          emailNotifications: null,
          audibleNotifications: false,
          color: '#a6c7e5',
        });
        expect(await tx.subscriptions.get(realm.id, other!.id, stream.id)).toBeUndefined();
      });
    });

    it('activeSubscriberIds and subscribersByStream list active rows of active users, ascending', async () => {
      const { realm, users } = await seed(storage(), [{}, {}, {}, { isActive: false }, {}]);
      const [u1, u2, u3, gone, u5] = users;
      const [s1, s2, s3] = await commit(storage(), async (tx) => [
        await tx.streams.insert(newStream(realm.id)),
        await tx.streams.insert(newStream(realm.id)),
        await tx.streams.insert(newStream(realm.id)),
      ]);
      await commit(storage(), async (tx) => {
        for (const user of [u5, u1, gone, u3]) await tx.subscriptions.upsert(newSubscription(realm.id, user!.id, s1!.id));
        await tx.subscriptions.upsert(newSubscription(realm.id, u2!.id, s1!.id, { active: false }));
        await tx.subscriptions.upsert(newSubscription(realm.id, u2!.id, s2!.id));
      });
      await storage().read(async (tx) => {
        expect(await tx.subscriptions.activeSubscriberIds(realm.id, s1!.id)).toEqual([u1!.id, u3!.id, u5!.id]);
        expect(await tx.subscriptions.activeSubscriberIds(realm.id, s3!.id)).toEqual([]);
        const map = await tx.subscriptions.subscribersByStream(realm.id, [s3!.id, s1!.id, s2!.id]);
        expect([...map.entries()].sort((a, b) => a[0] - b[0])).toEqual([
          [s1!.id, [u1!.id, u3!.id, u5!.id]],
          [s2!.id, [u2!.id]],
          [s3!.id, []],
        ]);
        const all = await tx.subscriptions.subscribersByStream(realm.id);
        expect([...all.keys()].sort((a, b) => a - b)).toEqual([s1!.id, s2!.id]);
        expect((await tx.subscriptions.subscribersByStream(realm.id, [])).size).toBe(0);
      });
    });

    it('forUser lists the user’s rows, active and inactive, by channel ID, in their realm only', async () => {
      const { realm, users: [user] } = await seed(storage(), [{}]);
      const { realm: other } = await seed(storage());
      const [s1, s2] = await commit(storage(), async (tx) => [
        await tx.streams.insert(newStream(realm.id)),
        await tx.streams.insert(newStream(realm.id)),
      ]);
      const rows = [newSubscription(realm.id, user!.id, s1!.id, { active: false }), newSubscription(realm.id, user!.id, s2!.id)];
      await commit(storage(), async (tx) => {
        await tx.subscriptions.upsert(rows[1]!);
        await tx.subscriptions.upsert(rows[0]!);
      });
      await storage().read(async (tx) => {
        expect(await tx.subscriptions.forUser(realm.id, user!.id)).toEqual(rows);
        expect(await tx.subscriptions.forUser(other.id, user!.id)).toEqual([]);
        expect(await tx.subscriptions.get(other.id, user!.id, s1!.id)).toBeUndefined();
        expect(await tx.subscriptions.activeSubscriberIds(other.id, s2!.id)).toEqual([]);
      });
      await commit(storage(), (tx) => tx.subscriptions.update(other.id, user!.id, s2!.id, { active: false }));
      expect((await storage().read((tx) => tx.subscriptions.get(realm.id, user!.id, s2!.id)))!.active).toBe(true);
    });
  });

  describe('defaultStreams', () => {
    it('add and remove are idempotent; list is ascending and per realm', async () => {
      const { realm } = await seed(storage());
      const { realm: other } = await seed(storage());
      const [s1, s2, s3] = await commit(storage(), async (tx) => [
        await tx.streams.insert(newStream(realm.id)),
        await tx.streams.insert(newStream(realm.id)),
        await tx.streams.insert(newStream(other.id)),
      ]);
      await commit(storage(), async (tx) => {
        await tx.defaultStreams.add(realm.id, s2!.id);
        await tx.defaultStreams.add(realm.id, s1!.id);
        await tx.defaultStreams.add(realm.id, s2!.id);
        await tx.defaultStreams.add(other.id, s3!.id);
      });
      expect(await storage().read((tx) => tx.defaultStreams.list(realm.id))).toEqual([s1!.id, s2!.id]);
      await commit(storage(), async (tx) => {
        await tx.defaultStreams.remove(realm.id, s1!.id);
        await tx.defaultStreams.remove(realm.id, s1!.id);
        await tx.defaultStreams.remove(realm.id, s3!.id);
      });
      expect(await storage().read((tx) => tx.defaultStreams.list(realm.id))).toEqual([s2!.id]);
      expect(await storage().read((tx) => tx.defaultStreams.list(other.id))).toEqual([s3!.id]);
    });
  });

  describe('channel writes and transactions', () => {
    it('roll back with the transaction', async () => {
      const { realm, users: [user] } = await seed(storage(), [{}]);
      const result = await storage().transaction(async (tx) => {
        const stream = await tx.streams.insert(newStream(realm.id));
        await tx.subscriptions.upsert(newSubscription(realm.id, user!.id, stream.id));
        await tx.defaultStreams.add(realm.id, stream.id);
        await tx.outbox.insert(newMail(realm.id));
        return err('no' as const);
      });
      expect(result._unsafeUnwrapErr()).toBe('no');
      await storage().read(async (tx) => {
        expect(await tx.streams.list(realm.id)).toEqual([]);
        expect(await tx.subscriptions.forUser(realm.id, user!.id)).toEqual([]);
        expect(await tx.defaultStreams.list(realm.id)).toEqual([]);
      });
    });

    it('are refused inside read', async () => {
      const { realm, users: [user] } = await seed(storage(), [{}]);
      const stream = await commit(storage(), (tx) => tx.streams.insert(newStream(realm.id)));
      await expect(storage().read((tx) => tx.streams.insert(newStream(realm.id)))).rejects.toThrow(/read/);
      await expect(storage().read((tx) => tx.streams.update(realm.id, stream.id, { name: 'x' }))).rejects.toThrow(/read/);
      await expect(storage().read((tx) => tx.subscriptions.upsert(newSubscription(realm.id, user!.id, stream.id)))).rejects.toThrow(/read/);
      await expect(storage().read((tx) => tx.subscriptions.update(realm.id, user!.id, stream.id, { color: '#000000' }))).rejects.toThrow(/read/);
      await expect(storage().read((tx) => tx.defaultStreams.add(realm.id, stream.id))).rejects.toThrow(/read/);
      await expect(storage().read((tx) => tx.defaultStreams.remove(realm.id, stream.id))).rejects.toThrow(/read/);
      expect(await storage().read((tx) => tx.streams.list(realm.id))).toEqual([stream]);
    });
  });
}
