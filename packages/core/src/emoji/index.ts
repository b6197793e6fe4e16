export { emojiCodeOfCodePoints, emojiCodeOfText } from './codes.js';
export { isValidEmojiCode, unicodeEmojiByCode, unicodeEmojiByName, unicodeEmojiNames } from './unicode.js';
export { UNICODE_EMOJI_SOURCE } from './unicode-emoji-data.js';
export {
  type EmojiRef,
  type RealmEmojiLookup,
  type RealmEmojiRef,
  type ReactionType,
  REACTION_TYPES,
  SERVICE_EXTRA_EMOJI,
  realmEmojiLookup,
} from './types.js';
export { type EmojiRequest, checkEmojiCode, checkEmojiRequest, resolveEmojiByName } from './check.js';
export { checkCustomEmojiName } from './custom-name.js';
