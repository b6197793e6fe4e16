/** The rule for custom (realm) emoji names, with the reference's texts (lib/emoji.py). */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';

const ALLOWED = /^[0-9a-z\-_]+$/;
const ENDS_WELL = /[0-9a-z]$/;

/**
 * Checks a name for a new custom emoji: lowercase ASCII letters, digits, `-` and `_`, ending in a
 * letter or digit. Missing and empty are the same to the reference.
 */
export function checkCustomEmojiName(name: string | undefined): Result<string, ApiError> {
  if (!name) return err(badRequest('Emoji name is missing'));
  if (!ALLOWED.test(name)) {
    // The text says "spaces" though a space is refused: the reference's wording, kept verbatim.
    return err(
      badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'),
    );
  }
  if (!ENDS_WELL.test(name)) return err(badRequest('Emoji names must end with either a letter or digit.'));
  return ok(name);
}
