/**
 * Content types of uploaded files: the client's claim, or one guessed from the name, and which
 * types a browser may show inline. Everything else downloads, so an uploaded page or script
 * never runs in the server's origin.
 */

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', bmp: 'image/bmp',
  svg: 'image/svg+xml', pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown', csv: 'text/csv',
  json: 'application/json', zip: 'application/zip', gz: 'application/gzip', mp3: 'audio/mpeg', ogg: 'audio/ogg',
  wav: 'audio/wav', mp4: 'video/mp4', webm: 'video/webm', html: 'text/html', htm: 'text/html',
};

/** Types shown inline (the reference's INLINE_MIME_TYPES, less anything that can run script). */
const INLINE = new Set([
  'image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/bmp', 'application/pdf',
  'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/webm', 'video/mp4', 'video/webm', 'video/ogg', 'text/plain',
]);

const GENERIC = 'application/octet-stream';

/** The type to store: the client's (without parameters) when it names one, else a guess from the name. */
export function uploadContentType(claimed: string, fileName: string): string {
  const type = claimed.split(';')[0]!.trim().toLowerCase();
  if (/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) && type !== GENERIC) return type;
  const extension = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return (fileName.includes('.') && BY_EXTENSION[extension]) || GENERIC;
}

/** Whether a stored type may be shown inline rather than downloaded. */
export const isInlineType = (contentType: string) => INLINE.has(contentType);
