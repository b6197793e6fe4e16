/** Custom profile field records and users' profile_data (API.md 2.3, SHAPES.md 5.8, 5.10). */
import type { CustomProfileField, ProfileFieldValue, Tx } from '../storage/types.js';

/** A custom profile field (API.md 2.3) the realm defines for its users' profiles. */
export interface ApiProfileField {
  id: number;
  name: string;
  hint: string;
  /** 1 short text, 2 long text, 3 choice, 4 date, 5 link, 6 users, 7 external account, 8 pronouns. */
  type: number;
  /** The choices or the external account's kind; `{}` for types that use none. */
  field_data: Record<string, unknown>;
  order: number;
  required: boolean;
  editable_by_user: boolean;
  /** Present (true) only when set. */
  display_in_profile_summary?: true;
  /** Present (true) only when set. */
  use_for_user_matching?: true;
}

/** One user's value of a custom profile field. */
export interface ApiProfileValue {
  value: string;
  /** Fields whose values are Markdown only. */
  rendered_value?: string;
}

/**
 * The field record. `field_data` is an object as API.md 2.3 says (the reference sends a JSON
 * string; API.md wins), `{}` when the type uses none. The two optional flags appear only when
 * true, as in the reference.
 */
export function formatProfileField(field: CustomProfileField): ApiProfileField {
  const record: ApiProfileField = {
    id: field.id,
    name: field.name,
    type: field.type,
    hint: field.hint,
    field_data: field.fieldData ?? {},
    order: field.order,
    required: field.required,
    editable_by_user: field.editableByUser,
  };
  if (field.displayInProfileSummary) record.display_in_profile_summary = true;
  if (field.useForUserMatching) record.use_for_user_matching = true;
  return record;
}

/** One value as profile_data and the realm_user event show it. */
export function formatProfileValue(value: Pick<ProfileFieldValue, 'value' | 'renderedValue'>): ApiProfileValue {
  return value.renderedValue === null ? { value: value.value } : { value: value.value, rendered_value: value.renderedValue };
}

/** A user's `profile_data`: their values keyed by field ID string. */
export type ProfileData = Record<string, ApiProfileValue>;

/** profile_data per user, for the given users of the realm (all when omitted). */
export async function profileDataByUser(tx: Tx, realmId: number, userIds?: readonly number[]): Promise<Map<number, ProfileData>> {
  const byUser = new Map<number, ProfileData>();
  for (const value of await tx.customProfileFields.values(realmId, userIds)) {
    let data = byUser.get(value.userId);
    if (!data) byUser.set(value.userId, (data = {}));
    data[String(value.fieldId)] = formatProfileValue(value);
  }
  return byUser;
}
