/** The user-group store of the storage contract (user-group-types.ts), run by storage.case.ts for every driver. */
import type { Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

export function describeUserGroupStore(storage: () => Storage): void {
  describe('user groups', () => {
    it('inserts with members, changes members within the realm; a realm name is unique in any case', async () => {
      const { realm, users: [a, b] } = await seed(storage(), [{}, { deliveryEmail: 'b@example.com' }]);
      const group = (name: string, members: number[]) => ({ name, description: 'd', creatorId: a!.id, dateCreated: 1700000000, members });
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
  });
}
