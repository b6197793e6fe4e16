/**
 * The custom profile field store of the storage contract, run by storage.case.ts for every
 * driver: the documented behaviour of profile-field-types.ts.
 */
import type { NewCustomProfileField, Storage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { commit, seed } from './fixtures.js';

const field = (realmId: number, name: string, extra: Partial<NewCustomProfileField> = {}): NewCustomProfileField => ({
  realmId,
  name,
  hint: '',
  type: 1,
  fieldData: null,
  required: false,
  editableByUser: true,
  displayInProfileSummary: false,
  useForUserMatching: false,
  ...extra,
});

export function describeCustomProfileFieldStore(storage: () => Storage): void {
  describe('custom profile fields', () => {
    it('insert round-trips with order = id; update, reorder and delete stay within the realm', async () => {
      const { realm } = await seed(storage());
      const { realm: other } = await seed(storage());
      const a = await commit(storage(), (tx) => tx.customProfileFields.insert(field(realm.id, 'A', { type: 3, fieldData: { x: { text: 'X', order: '1' } } })));
      expect(a).toEqual({ ...field(realm.id, 'A', { type: 3, fieldData: { x: { text: 'X', order: '1' } } }), id: expect.any(Number), order: a.id });
      const b = await commit(storage(), (tx) => tx.customProfileFields.insert(field(realm.id, 'B')));
      await expect(commit(storage(), (tx) => tx.customProfileFields.insert(field(realm.id, 'B')))).rejects.toThrow();
      await commit(storage(), (tx) => tx.customProfileFields.insert(field(other.id, 'B')));
      await commit(storage(), async (tx) => {
        await tx.customProfileFields.update(other.id, a.id, { name: 'stolen' });
        await tx.customProfileFields.update(realm.id, a.id, { hint: 'h', required: true, fieldData: null });
        await tx.customProfileFields.reorder(realm.id, [b.id, a.id]);
        await tx.customProfileFields.reorder(other.id, [a.id, b.id]);
      });
      const list = await storage().read((tx) => tx.customProfileFields.list(realm.id));
      expect(list).toEqual([{ ...b, order: 0 }, { ...a, hint: 'h', required: true, fieldData: null, order: 1 }]);
      await commit(storage(), (tx) => tx.customProfileFields.delete(other.id, a.id));
      expect(await storage().read((tx) => tx.customProfileFields.list(realm.id))).toHaveLength(2);
      await commit(storage(), (tx) => tx.customProfileFields.delete(realm.id, a.id));
      expect((await storage().read((tx) => tx.customProfileFields.list(realm.id))).map((f) => f.id)).toEqual([b.id]);
    });

    it('values: set replaces, remove reports, another realm cannot touch them, deleting the field drops them', async () => {
      const { realm, users: [u1, u2] } = await seed(storage(), [{}, {}]);
      const { realm: other } = await seed(storage());
      const a = await commit(storage(), (tx) => tx.customProfileFields.insert(field(realm.id, 'A')));
      const b = await commit(storage(), (tx) => tx.customProfileFields.insert(field(realm.id, 'B')));
      await commit(storage(), async (tx) => {
        await tx.customProfileFields.setValue(realm.id, { userId: u1!.id, fieldId: a.id, value: 'one', renderedValue: '<p>one</p>' });
        await tx.customProfileFields.setValue(realm.id, { userId: u1!.id, fieldId: a.id, value: 'two', renderedValue: null });
        await tx.customProfileFields.setValue(realm.id, { userId: u2!.id, fieldId: b.id, value: '[1]', renderedValue: null });
        await tx.customProfileFields.setValue(other.id, { userId: u2!.id, fieldId: a.id, value: 'x', renderedValue: null });
      });
      await storage().read(async (tx) => {
        expect(await tx.customProfileFields.values(realm.id)).toEqual([
          { userId: u1!.id, fieldId: a.id, value: 'two', renderedValue: null },
          { userId: u2!.id, fieldId: b.id, value: '[1]', renderedValue: null },
        ]);
        expect(await tx.customProfileFields.values(realm.id, [u2!.id])).toHaveLength(1);
        expect(await tx.customProfileFields.values(other.id)).toEqual([]);
      });
      expect(await commit(storage(), (tx) => tx.customProfileFields.removeValue(other.id, u1!.id, a.id))).toBe(false);
      expect(await commit(storage(), (tx) => tx.customProfileFields.removeValue(realm.id, u1!.id, a.id))).toBe(true);
      expect(await commit(storage(), (tx) => tx.customProfileFields.removeValue(realm.id, u1!.id, a.id))).toBe(false);
      await commit(storage(), (tx) => tx.customProfileFields.delete(realm.id, b.id));
      expect(await storage().read((tx) => tx.customProfileFields.values(realm.id))).toEqual([]);
    });
  });
}
