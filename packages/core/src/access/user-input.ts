import { err, ok, type Result } from 'neverthrow';
import { USER_LIMITS } from '../config.js';
import { type ApiError, badRequest } from '../errors.js';

/** Loose RFC 5322 shape check, as strict as the reference's validator in practice. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

export const isValidEmail = (email: string) => email.length <= 254 && EMAIL.test(email);

/** Full names: stripped, 1–100 characters, no control characters. */
export function checkFullName(raw: string): Result<string, ApiError> {
  const name = raw.trim();
  if ([...name].length > USER_LIMITS.fullNameMax) return err(badRequest('Name too long!'));
  if ([...name].length < USER_LIMITS.fullNameMin) return err(badRequest('Name too short!'));
  // biome-ignore lint: control characters are exactly what this rejects.
  if (/[\u0000-\u001f\u007f]/.test(name)) return err(badRequest('Invalid characters in name!'));
  return ok(name);
}

export function checkPassword(password: string): Result<string, ApiError> {
  const length = [...password].length;
  if (length < USER_LIMITS.passwordMin || length > USER_LIMITS.passwordMax) {
    return err(badRequest('The password is too weak.'));
  }
  return ok(password);
}
