/**
 * The rules a custom profile field definition must satisfy (API.md 2.3, 4.7; FACTS.md 7.2),
 * shared by creation and update: label and hint, the summary limit and types, user matching.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { CustomProfileField } from '../storage/types.js';
import { HINT_MAX_LENGTH, MAX_SUMMARY_FIELDS, NAME_MAX_LENGTH, NOT_IN_SUMMARY, USER_MATCHING_TYPES } from './types.js';
import { exceedsCodePoints } from '../text/length.js';

/** The stripped label and hint, checked. */
export function checkLabel(name: string, hint: string): Result<{ name: string; hint: string }, ApiError> {
  const label = name.trim();
  if (label === '') return err(badRequest('Label cannot be blank.'));
  if (exceedsCodePoints(label, NAME_MAX_LENGTH)) return err(badRequest(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`));
  if (exceedsCodePoints(hint, HINT_MAX_LENGTH)) return err(badRequest(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`));
  return ok({ name: label, hint });
}

/** The realm's other fields must not hold `name` already. */
export function checkUniqueLabel(others: readonly CustomProfileField[], name: string): Result<void, ApiError> {
  return others.some((f) => f.name === name) ? err(badRequest('A field with that label already exists.')) : ok(undefined);
}

/**
 * A field of `type` shown in the profile summary, next to the realm's `others` (the field
 * itself excluded): at most MAX_SUMMARY_FIELDS, never the Users type.
 */
export function checkSummary(type: number, shown: boolean, others: readonly CustomProfileField[]): Result<void, ApiError> {
  if (!shown) return ok(undefined);
  if (others.filter((f) => f.displayInProfileSummary).length >= MAX_SUMMARY_FIELDS) {
    return err(badRequest(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`));
  }
  if (NOT_IN_SUMMARY.has(type)) return err(badRequest('Field type not supported for display in profile summary.'));
  return ok(undefined);
}

/** use_for_user_matching only for Short Text and External Account (API.md 2.3). */
export function checkUserMatching(type: number, matching: boolean): Result<void, ApiError> {
  return matching && !USER_MATCHING_TYPES.has(type)
    ? err(badRequest('Only text and external account fields can be used for user matching.'))
    : ok(undefined);
}
