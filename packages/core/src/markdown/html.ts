/**
 * HTML escaping as the reference's serializer does it. Text escapes only `&`, `<` and `>` (so
 * quotes stay readable in `rendered_content`, as the reference's golden output has them);
 * attribute values also escape `"`. Every piece of user text reaches the output through one of
 * these, which is what keeps raw HTML in a message inert.
 */

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Escapes text content: `&`, `<`, `>`. */
export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!);
}

/** Escapes an attribute value: `&`, `<`, `>`, `"`. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"]/g, (c) => TEXT_ESCAPES[c]!);
}

/**
 * Escapes code the way the reference's highlighter does: quotes become `&quot;` and `&#39;`
 * inside code blocks.
 */
export function escapeCode(text: string): string {
  return escapeAttribute(text).replace(/'/g, '&#39;');
}

/** `<tag a="…" b="…">` with attributes in name order, as the reference serializes them. */
export function openTag(tag: string, attrs: Readonly<Record<string, string>>): string {
  const names = Object.keys(attrs).sort();
  return `<${tag}${names.map((name) => ` ${name}="${escapeAttribute(attrs[name]!)}"`).join('')}>`;
}

/** A whole element whose content is already HTML. */
export function element(tag: string, attrs: Readonly<Record<string, string>>, innerHtml: string): string {
  return `${openTag(tag, attrs)}${innerHtml}</${tag}>`;
}
