/**
 * A user's value of a custom profile field, checked per type (FACTS.md 7.1). Failure texts name
 * the field by its label, as the reference's do.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { CustomProfileField, User } from '../storage/types.js';
import { isWebUrl } from './field-data.js';
import { DATE, LONG_TEXT, SELECT, URL_TYPE, USER } from './types.js';
import { exceedsCodePoints } from '../text/length.js';

/** What a request may carry as a value: text, user IDs (Users type), or null to remove. */
export type ProfileValueInput = string | number[] | null;

const SHORT_LIMIT = 50;
const LONG_LIMIT = 500;

/**
 * The text to store for `input` (the Users type as a JSON list such as "[10]"), or null when
 * the input removes the value (null, an empty string or an empty list).
 */
export function checkProfileValue(
  field: CustomProfileField,
  input: ProfileValueInput,
  realmUsers: ReadonlyMap<number, User>,
): Result<string | null, ApiError> {
  if (input === null || input === '' || (Array.isArray(input) && input.length === 0)) return ok(null);
  const name = field.name;
  if (field.type === USER) {
    if (!Array.isArray(input)) return err(badRequest(`${name} is not a list`));
    for (const id of input) {
      const user = realmUsers.get(id);
      if (!user) return err(badRequest(`Invalid user ID: ${id}`));
      if (!user.isActive) return err(badRequest(`User with ID ${id} is deactivated`));
      if (user.isBot) return err(badRequest(`User with ID ${id} is a bot`));
    }
    return ok(JSON.stringify(input));
  }
  if (typeof input !== 'string') return err(badRequest(`${name} is not a string`));
  if (field.type === SELECT) {
    const choices = field.fieldData ?? {};
    return Object.hasOwn(choices, input) ? ok(input) : err(badRequest(`'${input}' is not a valid choice for '${name}'.`));
  }
  if (field.type === DATE) return isIsoDate(input) ? ok(input) : err(badRequest(`${name} is not a date`));
  if (field.type === URL_TYPE) return isWebUrl(input) ? ok(input) : err(badRequest(`${name} is not a URL`));
  const limit = field.type === LONG_TEXT ? LONG_LIMIT : SHORT_LIMIT;
  if (exceedsCodePoints(input, limit)) return err(badRequest(`${name} is too long (limit: ${limit} characters)`));
  return ok(input);
}

/** `YYYY-MM-DD` naming a real day (what date.fromisoformat accepts in this form). */
function isIsoDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
