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

/**
 * Cuts a name to MAX_NAME_BYTES, keeping a short extension. One pass over the stem's code points,
 * summing their UTF-8 sizes, so a 40,000-character name costs no more than reading it once.
 */
function shorten(name: string): string {
  if (Buffer.byteLength(name, 'utf8') <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const tail = dot > 0 ? name.slice(dot) : '';
  const extension = tail.length <= 16 && Buffer.byteLength(tail, 'utf8') <= 16 ? tail : '';
  const budget = MAX_NAME_BYTES - Buffer.byteLength(extension, 'utf8');
  let used = 0;
  let end = 0;
  for (const point of name.slice(0, name.length - extension.length)) {
    const size = utf8Size(point.codePointAt(0)!);
    if (used + size > budget) break;
    used += size;
    end += point.length;
  }
  return name.slice(0, end) + extension;
}

/** The UTF-8 size of one code point. */
const utf8Size = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

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
