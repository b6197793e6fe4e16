/** The user-group store of the storage contract (user-group-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeUserGroupStore(storage: () => Storage): void {
  describe('user groups', () => {
    it('inserts with members, changes members within the realm; a realm name is unique in any case', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, { deliveryEmail: 'b@example.com' }]);
      const group = (name: string, members: number[]) => ({ name, description: 'd', creatorId: a!.id, dateCreated: 1700000000, members, settings: {} });
      const backend = await commit(storage(), (tx) => tx.userGroups.insert(realm.id, group('backend', [b!.id, a!.id])));
      expect(backend).toMatchObject({ realmId: realm.id, name: 'backend', deactivated: false, members: [a!.id, b!.id].sort((x, y) => x - y) });
      // IDs stay clear of the system groups' fixed IDs.
      expect(backend.id).toBeGreaterThan(8);
      await expect(commit(storage(), (tx) => tx.userGroups.insert(realm.id, group('BACKEND', [])))).rejects.toThrow();
      const empty = await commit(storage(), (tx) => tx.userGroups.insert(realm.id, group('empty', [])));
      expect(await storage().read((tx) => tx.userGroups.list(realm.id))).toEqual([backend, empty]);
      await commit(storage(), (tx) => tx.userGroups.removeMembers(realm.id, backend.id, [a!.id]));
      await commit(storage(), (tx) => tx.userGroups.addMembers(realm.id, empty.id, [b!.id, b!.id]));
      // Another realm's IDs change nothing.
      await commit(storage(), (tx) => tx.userGroups.addMembers(realm.id + 1000, empty.id, [a!.id]));
      await commit(storage(), (tx) => tx.userGroups.removeMembers(realm.id + 1000, backend.id, [b!.id]));
      const get = (id: number, realmId = realm.id) => storage().read((tx) => tx.userGroups.get(realmId, id));
      expect((await get(backend.id))!.members).toEqual([b!.id]);
      expect((await get(empty.id))!.members).toEqual([b!.id]);
      expect(await get(backend.id, realm.id + 1000)).toBeUndefined();
    });

    it('keeps subgroups (system group IDs too) and settings; updates name, description, deactivated and settings within the realm', async () => {
      const { realm, users: [a] } = await seed(storage(), [{}]);
      const settings = { can_manage_group: { direct_members: [a!.id], direct_subgroups: ['role:moderators'] }, can_join_group: 'role:nobody' };
      const insert = (name: string) => commit(storage(), (tx) => tx.userGroups.insert(realm.id, { name, description: '', creatorId: a!.id, dateCreated: 1, members: [], settings }));
      const [top, sub] = [await insert('top'), await insert('sub')];
      expect(top).toMatchObject({ subgroups: [], settings });
      await commit(storage(), (tx) => tx.userGroups.addSubgroups(realm.id, top.id, [sub.id, 3, sub.id]));
      await commit(storage(), (tx) => tx.userGroups.addSubgroups(realm.id + 1000, sub.id, [top.id]));
      const get = (id: number) => storage().read((tx) => tx.userGroups.get(realm.id, id));
      expect((await get(top.id))!.subgroups).toEqual([3, sub.id]);
      expect((await get(sub.id))!.subgroups).toEqual([]);
      await commit(storage(), (tx) => tx.userGroups.removeSubgroups(realm.id, top.id, [3]));
      await commit(storage(), (tx) => tx.userGroups.removeSubgroups(realm.id + 1000, top.id, [sub.id]));
      expect((await get(top.id))!.subgroups).toEqual([sub.id]);
      await commit(storage(), (tx) => tx.userGroups.update(realm.id, top.id, { name: 'Top', description: 'new', deactivated: true, settings: { can_join_group: 7 } }));
      await commit(storage(), (tx) => tx.userGroups.update(realm.id + 1000, sub.id, { name: 'elsewhere' }));
      expect(await get(top.id)).toMatchObject({ name: 'Top', description: 'new', deactivated: true, settings: { can_join_group: 7 } });
      expect((await get(sub.id))!.name).toBe('sub');
      // A rename onto another group's name (in any case) throws, as an insert does.
      await expect(commit(storage(), (tx) => tx.userGroups.update(realm.id, sub.id, { name: 'TOP' }))).rejects.toThrow();
    });
  });
}
