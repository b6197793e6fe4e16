/** The invitation store of the storage contract (invitation-types.ts), run by storage.case.ts for every driver. */
import type { InvitationFields, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

let keys = 0;
const fields = (referrerId: number, overrides: Partial<InvitationFields> = {}): InvitationFields => ({
  referrerId,
  email: 'new@example.com',
  inviteAs: 400,
  streamIds: [],
  groupIds: [],
  includeRealmDefaultSubscriptions: false,
  notifyReferrerOnJoin: true,
  welcomeMessageCustomText: null,
  invitedAt: 1000,
  expiresAt: 2000,
  key: `invitation-key-${++keys}`,
  ...overrides,
});

export function describeInvitationStore(storage: () => Storage): void {
  describe('invitations', () => {
    it('inserts both kinds with every field, finds them by ID and key only in their realm', async () => {
      const { realm, users: [a] } = await seed(storage(), [{}]);
      const other = await seed(storage(), [{}]);
      const email = await commit(storage(), (tx) =>
        tx.invitations.insert(realm.id, fields(a!.id, { inviteAs: 200, streamIds: [3, 1], groupIds: [9], includeRealmDefaultSubscriptions: true, welcomeMessageCustomText: 'Hi *there*' })),
      );
      expect(email).toEqual({
        ...fields(a!.id, { key: email!.key }),
        id: email!.id,
        realmId: realm.id,
        isMultiuse: false,
        status: 'pending',
        inviteAs: 200,
        streamIds: [3, 1],
        groupIds: [9],
        includeRealmDefaultSubscriptions: true,
        welcomeMessageCustomText: 'Hi *there*',
      });
      const link = await commit(storage(), (tx) => tx.invitations.insert(realm.id, fields(a!.id, { email: null, expiresAt: null })));
      expect(link).toMatchObject({ isMultiuse: true, email: null, expiresAt: null, welcomeMessageCustomText: null });
      // A referrer of another realm (or an unknown one) gets nothing written.
      expect(await commit(storage(), (tx) => tx.invitations.insert(other.realm.id, fields(a!.id)))).toBeUndefined();
      expect(await commit(storage(), (tx) => tx.invitations.insert(realm.id, fields(a!.id + 1000)))).toBeUndefined();
      await storage().read(async (tx) => {
        expect(await tx.invitations.get(realm.id, email!.id)).toEqual(email);
        expect(await tx.invitations.get(other.realm.id, email!.id)).toBeUndefined();
        expect(await tx.invitations.byKey(realm.id, link!.key)).toEqual(link);
        expect(await tx.invitations.byKey(other.realm.id, link!.key)).toBeUndefined();
        expect(await tx.invitations.byKey(realm.id, 'no-such-key')).toBeUndefined();
      });
    });

    it('refuses a key another invitation has', async () => {
      const { realm, users: [a] } = await seed(storage(), [{}]);
      await commit(storage(), (tx) => tx.invitations.insert(realm.id, fields(a!.id, { key: 'same-key-for-both' })));
      await expect(commit(storage(), (tx) => tx.invitations.insert(realm.id, fields(a!.id, { key: 'same-key-for-both' })))).rejects.toThrow();
    });

    it('lists pending, unexpired invitations by ID and updates only pending ones', async () => {
      const { realm, users: [a] } = await seed(storage(), [{}]);
      const other = await seed(storage(), [{}]);
      const [early, never, late, gone] = await commit(storage(), async (tx) => [
        await tx.invitations.insert(realm.id, fields(a!.id, { expiresAt: 1500 })),
        await tx.invitations.insert(realm.id, fields(a!.id, { expiresAt: null, email: null })),
        await tx.invitations.insert(realm.id, fields(a!.id, { expiresAt: 3000 })),
        await tx.invitations.insert(realm.id, fields(a!.id)),
      ]);
      await commit(storage(), (tx) => tx.invitations.insert(other.realm.id, fields(other.users[0]!.id)));
      expect(await commit(storage(), (tx) => tx.invitations.updatePending(realm.id, gone!.id, { status: 'revoked' }))).toBe(true);
      const ids = async (now: number) => (await storage().read((tx) => tx.invitations.listPending(realm.id, now))).map((i) => i.id);
      expect(await ids(1499)).toEqual([early!.id, never!.id, late!.id]);
      // Expiry is exclusive: an invitation expiring now is no longer listed.
      expect(await ids(1500)).toEqual([never!.id, late!.id]);
      expect(await ids(5000)).toEqual([never!.id]);

      expect(await commit(storage(), (tx) => tx.invitations.updatePending(realm.id, gone!.id, { status: 'used' }))).toBe(false);
      expect(await commit(storage(), (tx) => tx.invitations.updatePending(other.realm.id, late!.id, { status: 'used' }))).toBe(false);
      expect(await commit(storage(), (tx) => tx.invitations.updatePending(realm.id, late!.id, { invitedAt: 4000, expiresAt: null }))).toBe(true);
      expect(await storage().read((tx) => tx.invitations.get(realm.id, late!.id))).toEqual({ ...late, invitedAt: 4000, expiresAt: null });
      expect(await storage().read((tx) => tx.invitations.get(realm.id, gone!.id))).toMatchObject({ status: 'revoked' });
    });
  });
}
