import { err, ok } from 'neverthrow';
import { serverEmojiDataFile } from '../emoji/server-data.js';
import { notFound } from '../errors.js';
import { publicOperation } from '../operation.js';
import { ServerEmojiDataParams } from '../schemas/reactions.js';
import type { ServedFile } from '../uploads/served-file.js';

/**
 * GET /static/generated/emoji/{file}: the unicode emoji names file of `server_emoji_data_url`.
 * No login (the mobile app fetches it without credentials, as from the reference). Only the
 * current file's name is served: an old hash is a 404, never stale data under a cached name.
 */
export const getServerEmojiData = publicOperation(ServerEmojiDataParams, async (_ctx, _caller, params) => {
  const file = serverEmojiDataFile();
  if (params.file !== file.fileName) return err(notFound());
  return ok<ServedFile>({ contentType: 'application/json', bytes: file.bytes, cacheForever: true });
});
