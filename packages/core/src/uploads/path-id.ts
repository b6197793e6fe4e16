/** Names of uploaded files: the sanitized file name and the `path_id` a file is stored under. */

/** The longest stored file name, in UTF-8 bytes: one path segment on every common filesystem. */
const MAX_NAME_BYTES = 200;

/**
 * The reference's sanitize_name: NFKC, then only letters, digits, `_`, `.`, `-` and spaces
 * survive; runs of spaces and dashes become one `-`. Names that end up empty, `.` or `..` become
 * `uploaded-file`. Over-long names lose the end of their stem, keeping the extension.
 */
export function sanitizeFileName(name: string): string {
  let value = name.normalize('NFKC').replace(/[^\p{L}\p{N}_\s.-]/gu, '').trim();
  value = value.replace(/[-\s]+/g, '-');
  if (value === '' || value === '.' || value === '..') return 'uploaded-file';
  return shorten(value);
}

function shorten(name: string): string {
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  if (bytes(name) <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && bytes(name.slice(dot)) <= 16 ? name.slice(dot) : '';
  const stem = [...name.slice(0, name.length - extension.length)];
  while (stem.length > 0 && bytes(stem.join('') + extension) > MAX_NAME_BYTES) stem.pop();
  return stem.join('') + extension;
}

/**
 * A new `path_id`: `{realm_id}/{2 hex}/{24 random URL-safe characters}/{file name}`, as the
 * reference builds it. The random part is what keeps a file's URL unguessable.
 */
export function newPathId(realmId: number, fileName: string, random: (size: number) => Buffer): string {
  const spread = random(1).toString('hex');
  return `${realmId}/${spread}/${random(18).toString('base64url')}/${fileName}`;
}

/** The URL path a file is served under (`url` of POST /user_uploads; SHAPES.md 5.7). */
export const uploadUrl = (pathId: string) => `/user_uploads/${pathId}`;
