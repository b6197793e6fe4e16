/**
 * The server's unicode emoji names as one JSON file, for the register's `server_emoji_data_url`
 * (the reference's `emoji_api.json`): `{"code_to_names": {"1f600": ["grinning", "happy"], …}}`,
 * each code's canonical name first. Clients fetch it without credentials for emoji typeahead.
 * Its path carries a hash of its content, so it can be cached forever and a new table gets a
 * new URL.
 */
import { createHash } from 'node:crypto';
import { UNICODE_EMOJI_TABLE } from './unicode-emoji-data.js';

/** The file's bytes and its content-addressed name. */
export interface ServerEmojiDataFile {
  fileName: string;
  bytes: Uint8Array;
}

/** Where the file is served, outside /api/v1; `{file}` is ServerEmojiDataFile.fileName. */
export const SERVER_EMOJI_DATA_DIR = '/static/generated/emoji';

let built: ServerEmojiDataFile | undefined;

/** Built once, on first use: the table does not change while the server runs. */
export function serverEmojiDataFile(): ServerEmojiDataFile {
  if (built) return built;
  const codeToNames: Record<string, string[]> = {};
  for (const line of UNICODE_EMOJI_TABLE.split('\n')) {
    if (line === '') continue;
    const [code, ...names] = line.split(' ') as [string, ...string[]];
    codeToNames[code] = names;
  }
  const bytes = new TextEncoder().encode(JSON.stringify({ code_to_names: codeToNames }));
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  built = { fileName: `emoji_api.${hash}.json`, bytes };
  return built;
}

/** The file's absolute URL on a realm. */
export function serverEmojiDataUrl(realmUrl: string): string {
  return `${realmUrl.replace(/\/+$/, '')}${SERVER_EMOJI_DATA_DIR}/${serverEmojiDataFile().fileName}`;
}
