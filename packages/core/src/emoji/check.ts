/**
 * Validating and resolving the emoji a reaction names, with the reference's rules and error
 * texts (FACTS.md 9, lib/emoji.py `check_emoji_request` and `get_emoji_data`).
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import { type EmojiRef, type RealmEmojiLookup, type ReactionType, SERVICE_EXTRA_EMOJI } from './types.js';
import { isValidEmojiCode, unicodeEmojiByName } from './unicode.js';

const invalidCode = () => badRequest('Invalid emoji code.');
const invalidName = () => badRequest('Invalid emoji name.');

/** A reaction's emoji as the client sent it: any strings. */
export interface EmojiRequest {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/**
 * Checks that a new reaction's name, code and type agree, returning the reaction with its type
 * narrowed. Custom emoji are looked up by ID (the code) and must be active and match the name;
 * unicode codes must be in the table and the name must map to exactly that code (an alias is
 * fine, a name of another emoji is not). The checks run in the reference's order, so a request
 * wrong in two ways gets the same message as there.
 */
export function checkEmojiRequest(request: EmojiRequest, realmEmoji: RealmEmojiLookup): Result<EmojiRef, ApiError> {
  const { emoji_name, emoji_code, reaction_type } = request;
  const code = checkEmojiCode(emoji_code, reaction_type, realmEmoji);
  if (code.isErr()) return err(code.error);
  switch (code.value) {
    case 'realm_emoji': {
      const emoji = realmEmoji.byId(emoji_code)!;
      if (emoji.name !== emoji_name) return err(badRequest('Invalid custom emoji name.'));
      if (emoji.deactivated) return err(badRequest('This custom emoji has been deactivated.'));
      break;
    }
    case 'service_extra_emoji':
      if (emoji_name !== emoji_code) return err(invalidName());
      break;
    case 'unicode_emoji':
      if (unicodeEmojiByName(emoji_name) !== emoji_code) return err(invalidName());
      break;
  }
  return ok({ emoji_name, emoji_code, reaction_type: code.value });
}

/**
 * Whether a code names an emoji of the type, whatever the name: a unicode code in the table, the
 * ID of one of the realm's custom emoji (deactivated ones too), or an extra emoji's code.
 * Returns the type, narrowed. The first checks of `checkEmojiRequest`, and all that removing a
 * reaction checks of the code a client sends.
 */
export function checkEmojiCode(code: string, type: string, realmEmoji: RealmEmojiLookup): Result<ReactionType, ApiError> {
  switch (type) {
    case 'realm_emoji':
      return realmEmoji.byId(code) ? ok(type) : err(badRequest('Invalid custom emoji.'));
    case 'service_extra_emoji':
      return Object.values(SERVICE_EXTRA_EMOJI).includes(code) ? ok(type) : err(invalidCode());
    case 'unicode_emoji':
      return isValidEmojiCode(code) ? ok(type) : err(invalidCode());
    default:
      return err(badRequest('Invalid emoji type.'));
  }
}

/**
 * The emoji a bare name means, for a reaction sent without a code: the first match wins, in the
 * reference's order — an active custom emoji of the realm (so a realm can shadow a unicode name),
 * then the service's extra emoji, then a unicode emoji.
 */
export function resolveEmojiByName(
  name: string,
  realmEmoji: RealmEmojiLookup,
): Result<{ emoji_code: string; reaction_type: ReactionType }, ApiError> {
  const custom = realmEmoji.activeByName(name);
  if (custom && !custom.deactivated) return ok({ emoji_code: custom.id, reaction_type: 'realm_emoji' });
  const extra = Object.hasOwn(SERVICE_EXTRA_EMOJI, name) ? SERVICE_EXTRA_EMOJI[name] : undefined;
  if (extra !== undefined) return ok({ emoji_code: extra, reaction_type: 'service_extra_emoji' });
  const code = unicodeEmojiByName(name);
  if (code !== undefined) return ok({ emoji_code: code, reaction_type: 'unicode_emoji' });
  return err(badRequest(`Emoji '${name}' does not exist`));
}
