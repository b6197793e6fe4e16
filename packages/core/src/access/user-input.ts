import { err, ok, type Result } from 'neverthrow';
import { USER_LIMITS } from '../config.js';
import { type ApiError, badRequest } from '../errors.js';
import { exceedsCodePoints } from '../text/length.js';

/** Loose RFC 5322 shape check, as strict as the reference's validator in practice. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

export const isValidEmail = (email: string) => email.length <= 254 && EMAIL.test(email);

/** Characters the reference bans from names because its Markdown mention syntax uses them. */
const NAME_INVALID_CHARS = /[*`\\>"@]/;
/** Unicode "other" characters (controls, format characters, unassigned, private use). */
const NAME_OTHER_CHARS = /\p{C}/u;
/** A trailing `|15` would read as a mention's disambiguating user ID. */
const NAME_ID_SUFFIX = /\|\d+$/;

/** Full names, with the reference's rules and texts: stripped, 2–100 code points. */
export function checkFullName(raw: string): Result<string, ApiError> {
  const name = raw.trim();
  // Counted without copying: a hostile name may be as long as the request body.
  if (exceedsCodePoints(name, USER_LIMITS.fullNameMax)) return err(badRequest('Name too long!'));
  if (!exceedsCodePoints(name, USER_LIMITS.fullNameMin - 1)) return err(badRequest('Name too short!'));
  if (NAME_OTHER_CHARS.test(name) || NAME_INVALID_CHARS.test(name)) return err(badRequest('Invalid characters in name!'));
  // Checked on the raw text, as the reference does.
  if (NAME_ID_SUFFIX.test(raw)) return err(badRequest('Invalid format!'));
  return ok(name);
}

export function checkPassword(password: string): Result<string, ApiError> {
  if (!exceedsCodePoints(password, USER_LIMITS.passwordMin - 1) || exceedsCodePoints(password, USER_LIMITS.passwordMax)) {
    return err(badRequest('The password is too weak.'));
  }
  return ok(password);
}
