/**
 * Checking a status change (the reference's update_user_status_backend): which fields it sets,
 * with the emoji resolved and checked as a reaction's is (emoji/check.ts), in the reference's
 * order, so that a request wrong in two ways gets the same message as there.
 */
import { err, ok, type Result } from 'neverthrow';
import { checkEmojiRequest, type RealmEmojiLookup, resolveEmojiByName } from '../emoji/index.js';
import { type ApiError, noNewStatusValues, statusEmojiNameRequired } from '../errors.js';
import type { UserStatusChange } from '../storage/types.js';
import type { UserStatusFields } from '../events/union/users.js';

/** A status change as the client sent it (already parsed; the text already stripped). */
export interface StatusRequest {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

/** A checked change: the stored fields it sets, and the `user_status` event's fields. */
export interface CheckedStatusChange {
  change: UserStatusChange;
  event: UserStatusFields;
}

/**
 * Checks a status change. An empty emoji name clears the emoji; a name without a code or type
 * takes the missing ones from the emoji the name means; a code or type without a name is
 * refused. A request that sets nothing at all is refused too.
 */
export function checkStatusChange(request: StatusRequest, realmEmoji: RealmEmojiLookup): Result<CheckedStatusChange, ApiError> {
  const { status_text: text, emoji_name: name, away } = request;
  let { emoji_code: code, reaction_type: type } = request;
  if (away === undefined && text === undefined && name === undefined) return err(noNewStatusValues());
  if (name === '') {
    code = '';
    type = 'unicode_emoji';
  } else if (name !== undefined) {
    if (code === undefined || type === undefined) {
      const resolved = resolveEmojiByName(name, realmEmoji);
      if (resolved.isErr()) return err(resolved.error);
      code ??= resolved.value.emoji_code;
      type ??= resolved.value.reaction_type;
    }
    // Only a code or type sent along with a name is checked against it.
    const checked = checkEmojiRequest({ emoji_name: name, emoji_code: code, reaction_type: type }, realmEmoji);
    if (checked.isErr()) return err(checked.error);
    type = checked.value.reaction_type;
  } else if (code || type) {
    // Empty strings count as not sent, as in the reference.
    return err(statusEmojiNameRequired());
  }

  const change: UserStatusChange = {};
  const event: UserStatusFields = {};
  if (away !== undefined) event.away = away;
  if (text !== undefined) change.statusText = event.status_text = text;
  if (name !== undefined) {
    change.emojiName = event.emoji_name = name;
    change.emojiCode = event.emoji_code = code!;
    change.reactionType = type as UserStatusChange['reactionType'];
    event.reaction_type = type;
  }
  return ok({ change, event });
}
