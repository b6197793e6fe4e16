/** Custom profile field records and users' profile_data (API.md 2.3, SHAPES.md 5.8, 5.10). */
import type { CustomProfileField, ProfileFieldValue, Tx } from '../storage/types.js';

/**
 * The field record. `field_data` is an object as API.md 2.3 says (the reference sends a JSON
 * string; API.md wins), `{}` when the type uses none. The two optional flags appear only when
 * true, as in the reference.
 */
export function formatProfileField(field: CustomProfileField): Record<string, unknown> {
  const record: Record<string, unknown> = {
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
export function formatProfileValue(value: Pick<ProfileFieldValue, 'value' | 'renderedValue'>): { value: string; rendered_value?: string } {
  return value.renderedValue === null ? { value: value.value } : { value: value.value, rendered_value: value.renderedValue };
}

/** A user's `profile_data`: their values keyed by field ID string. */
export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

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
