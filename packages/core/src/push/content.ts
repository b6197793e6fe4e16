/**
 * A message's text as a push notification shows it (the reference's get_mobile_push_content and
 * truncate_content): the rendered HTML walked as plain text, emoji as characters, images by
 * their alt text, TeX as its source, quotes prefixed with "> " (and, next to other text,
 * collapsed to "[…]"), ordered lists numbered, spoilers by their header; then at most 200
 * characters and an ellipsis.
 */
import { findAll, hasClass, type HtmlElement, parseFragment, textContent } from './html-tree.js';

/** The reference's bound on a notification's text. */
export const PUSH_CONTENT_MAX_LENGTH = 200;

/** The text an element itself contributes before its children (the reference's get_text). */
function ownText(element: HtmlElement): string {
  const emoji = (element.attrs.class ?? '').match(/(?:^|\s)emoji-(\S+)/);
  if (hasClass(element, 'emoji') && emoji) {
    const chars = emoji[1]!.split('-').map((hex) => parseInt(hex, 16));
    if (chars.every((c) => Number.isInteger(c) && c >= 0 && c <= 0x10ffff)) return String.fromCodePoint(...chars);
  }
  if (element.tag === 'img') return element.attrs.alt ?? '';
  if (element.tag === 'blockquote') return '';
  return element.text;
}

const quote = (text: string) => text.split(/\r?\n/).filter((line) => line !== '').map((line) => `> ${line}\n`).join('');

function orderedList(ol: HtmlElement, depth: number): string {
  let counter = Number.parseInt(ol.attrs.start ?? '', 10);
  if (!Number.isFinite(counter)) counter = 1;
  const indent = depth > 0 ? `\n${'  '.repeat(depth)}` : '';
  return ol.children.map((li) => `${indent}${counter++}. ${walk(li, depth + 1).trim()}`).join('\n');
}

function spoiler(block: HtmlElement, depth: number): string {
  const header = findAll(block, (e) => hasClass(e, 'spoiler-header'))[0];
  const text = header ? walk(header, depth).trim() : '';
  return text === '' ? '(…)\n' : `${text} (…)\n`;
}

/** The reference's process(); `depth` counts enclosing ordered lists. */
function walk(element: HtmlElement, depth: number): string {
  if (element.tag === 'ol') return orderedList(element, depth);
  if (hasClass(element, 'spoiler-block')) return spoiler(element, depth);
  let children = element.children.map((child) => walk(child, depth)).join('');
  if (element.tag === 'blockquote') children = quote(children);
  return ownText(element) + children + element.tail;
}

/** `<span class="katex">` becomes its TeX source between `$$` (the reference's change_katex_to_raw_latex). */
function texAsSource(element: HtmlElement): void {
  element.children = element.children.map((child) => {
    if ((child.attrs.class ?? '') === 'katex') {
      const tex = findAll(child, (e) => e.tag === 'annotation' && e.attrs.encoding === 'application/x-tex')[0];
      return { tag: 'span', attrs: {}, children: [], text: `$$${tex ? textContent(tex) : ''}$$`, tail: child.tail };
    }
    texAsSource(child);
    return child;
  });
}

/** A paragraph that only says "@user [said](link):", the line a quote-and-reply starts with. */
function isSaidLine(p: HtmlElement): boolean {
  const mentions = findAll(p, (e) => hasClass(e, 'user-mention'));
  const links = findAll(p, (e) => e.tag === 'a' && /#narrow\//.test(e.attrs.href ?? ''));
  if (mentions.length !== 1 || links.length !== 1) return false;
  return textContent(p).replace(textContent(mentions[0]!), '').replace(textContent(links[0]!), '').trim() === ':';
}

/** Quotes beside other text become one "[…]" each run (the reference's potentially_collapse_quotes). */
function collapseQuotes(root: HtmlElement): void {
  const quoted = root.children.map((child) => child.tag === 'blockquote' || isSaidLine(child));
  if (quoted.every(Boolean) || !quoted.some(Boolean)) return;
  root.children = root.children.flatMap((child, i) => {
    if (!quoted[i]) return [child];
    if (i > 0 && quoted[i - 1]) return [];
    return [{ tag: 'p', attrs: {}, children: [], text: '[…]', tail: child.tail }];
  });
}

/** Rendered message HTML as notification text, and whether it was cut. */
export function mobilePushContent(html: string): { content: string; truncated: boolean } {
  const root = parseFragment(html);
  texAsSource(root);
  collapseQuotes(root);
  const chars = [...walk(root, 0)];
  if (chars.length <= PUSH_CONTENT_MAX_LENGTH) return { content: chars.join(''), truncated: false };
  return { content: `${chars.slice(0, PUSH_CONTENT_MAX_LENGTH).join('')}…`, truncated: true };
}
