/**
 * Custom emoji images: which formats are accepted, recognised by their leading bytes rather
 * than by the client's claimed type, so that what is stored and served as `image/png` is one.
 */

const FORMATS = [
  { contentType: 'image/png', extension: 'png', magic: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]] },
  { contentType: 'image/gif', extension: 'gif', magic: [[0x47, 0x49, 0x46, 0x38, 0x37, 0x61], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]] },
  { contentType: 'image/jpeg', extension: 'jpg', magic: [[0xff, 0xd8, 0xff]] },
] as const;

/** The largest emoji image (FACTS.md 4: MAX_EMOJI_FILE_SIZE_MIB). */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);

/** The image's content type from its bytes (PNG, GIF, JPEG, WebP), or null for anything else. */
export function detectImageType(bytes: Uint8Array): string | null {
  for (const format of FORMATS) if (format.magic.some((m) => startsWith(bytes, m))) return format.contentType;
  // RIFF....WEBP: the four bytes between are the chunk size.
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

/** The file extension an image of this type is served under. */
export function imageExtension(contentType: string): string {
  return FORMATS.find((f) => f.contentType === contentType)?.extension ?? 'webp';
}
