/** Input of the alert-word endpoints (openapi /users/me/alert_words). */
import { type } from './known-structs.js';
import { List, Text } from './wire.js';

/** The reference's AlertWord.MAX_ALERT_WORD_LENGTH. */
export const MAX_ALERT_WORD_LENGTH = 100;

export const AddAlertWordsParams = type({ alert_words: List(Text({ max: MAX_ALERT_WORD_LENGTH })) });

/** Removal takes any strings: a word that was never added is ignored. */
export const RemoveAlertWordsParams = type({ alert_words: List(Text()) });
