/** Input of /bot_storage (the reference's views/storage.py; not in its OpenAPI). */
import { type } from './known-structs.js';
import { json, List, optional, record, Str } from './wire.js';

/**
 * PUT /bot_storage: `storage`, a JSON object of string values. Its text may be as large as the
 * configured storage size (10 MB by default, the reference's), which the action checks, so the
 * default JSON text limit does not apply; the body limit still does.
 */
export const PutBotStorageParams = type({ storage: json(record(Str, Str), Number.MAX_SAFE_INTEGER) });

/** GET and DELETE /bot_storage: `keys`, a JSON list; left out or empty, every key. */
export const BotStorageKeysParams = type({ keys: optional(List(Str)) });
