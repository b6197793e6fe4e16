/**
 * A message's text as a push notification shows it (the reference's get_mobile_push_content and
 * truncate_content): the rendered HTML as plain text, images by their alt text, at most 200
 * characters then an ellipsis.
 */

/** The reference's bound on a notification's text. */
export const PUSH_CONTENT_MAX_LENGTH = 200;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (ENTITIES[name] !== undefined) return ENTITIES[name]!;
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return whole;
  });
}

/** Rendered message HTML as notification text, and whether it was cut. */
export function mobilePushContent(html: string): { content: string; truncated: boolean } {
  const text = decodeEntities(
    html
      .replace(/<img\b[^>]*\balt="([^"]*)"[^>]*>/gi, '$1')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|li|h[1-6]|blockquote|pre|tr)>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const chars = [...text];
  if (chars.length <= PUSH_CONTENT_MAX_LENGTH) return { content: text, truncated: false };
  return { content: `${chars.slice(0, PUSH_CONTENT_MAX_LENGTH).join('')}…`, truncated: true };
}
