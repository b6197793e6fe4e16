/**
 * A user's status as the API shows it (openapi UserStatus): only the parts that are set. `away`
 * is the deprecated inverse of the presence_enabled setting, shown only when true.
 */
import { userSetting } from '../settings/user-settings.js';
import type { User, UserStatus } from '../storage/types.js';

/** The API's status object; every key is optional. */
export interface ApiUserStatus {
  away?: true;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** The status of `user` from their stored row (undefined: no row, `{}`). */
export function formatUserStatus(user: User, row: UserStatus | undefined): ApiUserStatus {
  if (!row) return {};
  const out: ApiUserStatus = {};
  if (!userSetting(user, 'presence_enabled')) out.away = true;
  if (row.statusText) out.status_text = row.statusText;
  if (row.emojiName) {
    out.emoji_name = row.emojiName;
    out.emoji_code = row.emojiCode;
    out.reaction_type = row.reactionType;
  }
  return out;
}

/**
 * Whether the register snapshot leaves the user out: a row whose status was cleared, of a user
 * who is not away, says nothing (the reference excludes exactly these rows).
 */
export function isBlankStatus(user: User, row: UserStatus): boolean {
  return (
    userSetting(user, 'presence_enabled') &&
    row.statusText === '' &&
    row.emojiName === '' &&
    row.emojiCode === '' &&
    row.reactionType === 'unicode_emoji'
  );
}
