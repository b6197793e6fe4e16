/** Input of /bot_storage (the reference's views/storage.py; not in its OpenAPI). */
import { type } from 'superstruct';
import { json, List, optional, record, Str } from './wire.js';

/** PUT /bot_storage: `storage`, a JSON object of string values. */
export const PutBotStorageParams = type({ storage: json(record(Str, Str)) });

/** GET and DELETE /bot_storage: `keys`, a JSON list; left out or empty, every key. */
export const BotStorageKeysParams = type({ keys: optional(List(Str)) });
