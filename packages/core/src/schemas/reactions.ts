/** Input of the reaction and custom emoji endpoints (API.md 2.11, 4.15; FACTS.md 9). */
import { optional, type } from './known-structs.js';
import { defaulted, PathInt, Str } from './wire.js';

/** POST /messages/{message_id}/reactions: a missing code or type is derived from the name. */
export const AddReactionParams = type({
  message_id: PathInt,
  emoji_name: Str,
  emoji_code: optional(Str),
  reaction_type: optional(Str),
});

/** DELETE /messages/{message_id}/reactions: `reaction_type` is not derived, it defaults. */
export const RemoveReactionParams = type({
  message_id: PathInt,
  emoji_name: optional(Str),
  emoji_code: optional(Str),
  reaction_type: defaulted(Str, 'unicode_emoji'),
});

/** GET /realm/emoji. */
export const GetRealmEmojiParams = type({});

/** POST and DELETE /realm/emoji/{emoji_name}; the upload comes as a file among the parameters. */
export const RealmEmojiNameParams = type({ emoji_name: Str });

/** GET /user_avatars/{realm_id}/emoji/images/{file}. */
export const RealmEmojiImageParams = type({ realm_id: PathInt, file: Str });

/** GET /static/generated/emoji/{file}: the server emoji data file, by its content-addressed name. */
export const ServerEmojiDataParams = type({ file: Str });
