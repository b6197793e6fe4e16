/**
 * The custom profile field part of the storage contract: a realm's field definitions and each
 * user's values. See types.ts for the isolation rules every store follows.
 */

/** A custom profile field definition (API.md 2.3). */
export interface CustomProfileField {
  id: number;
  realmId: number;
  name: string;
  hint: string;
  /** 1–8 (FACTS.md 7.1); never changes after creation. */
  type: number;
  /** The dropdown choices or external account settings; null when the type uses none. */
  fieldData: Record<string, unknown> | null;
  /** Position in the realm's list; lists are sorted by it. */
  order: number;
  required: boolean;
  editableByUser: boolean;
  displayInProfileSummary: boolean;
  useForUserMatching: boolean;
}

/** A custom profile field to insert (it is placed last). */
export type NewCustomProfileField = Omit<CustomProfileField, 'id' | 'order'>;
/** Fields of a custom profile field to change; absent fields stay as they are. */
export type CustomProfileFieldPatch = Partial<Omit<CustomProfileField, 'id' | 'realmId' | 'type' | 'order'>>;

/** One user's value of one field, as stored (the Users type as JSON text such as "[10]"). */
export interface ProfileFieldValue {
  userId: number;
  fieldId: number;
  value: string;
  /** The Markdown rendering, for the types that have one (1 and 2); else null. */
  renderedValue: string | null;
}

/** A realm's custom profile fields, and users' values for them. */
export interface CustomProfileFieldStore {
  /** Stores a definition; its `order` is its ID, so a new field comes last (as in the reference). */
  insert(field: NewCustomProfileField): Promise<CustomProfileField>;
  /** The realm's fields, by `order` then ID. */
  list(realmId: number): Promise<CustomProfileField[]>;
  update(realmId: number, id: number, patch: CustomProfileFieldPatch): Promise<void>;
  /** Deletes the realm's field and every value of it. */
  delete(realmId: number, id: number): Promise<void>;
  /** Gives each listed field of the realm its index in `ids` as its order. */
  reorder(realmId: number, ids: readonly number[]): Promise<void>;
  /** The values of the realm's fields, for the given users (all users when omitted). */
  values(realmId: number, userIds?: readonly number[]): Promise<ProfileFieldValue[]>;
  /** Sets (inserts or replaces) one value of a field of the realm. */
  setValue(realmId: number, value: ProfileFieldValue): Promise<void>;
  /** Removes one user's value of a field of the realm; returns whether one existed. */
  removeValue(realmId: number, userId: number, fieldId: number): Promise<boolean>;
}
