/**
 * Inline previews of linked images, placed as the reference places them: after the paragraph
 * with the link (replacing the paragraph when it is nothing but the bare link), at the end of a
 * list item, or at the end of the message for links elsewhere. Each image is previewed once;
 * links inside quotes are not previewed; a message with more than 24 image-able links gets none.
 * The `<img>` loads through the context's thumbnail URLs, never straight from the linked site.
 */
import type { Token } from 'markdown-it';
import { openTag } from './html.js';
import type { ImagePreviews } from './types.js';
import { splitUrl } from './url.js';

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];
const PREVIEW_LIMIT = 24;

/** Whether a link's target looks like an image by its path. */
export function isImageUrl(href: string): boolean {
  const { netloc, path } = splitUrl(href);
  if (netloc === 'pasteboard.co') return false;
  const lower = path.toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

interface Candidate {
  href: string;
  /** The link's text differs from its URL: kept as the preview's title, and the link stays. */
  title: string | null;
  /** The index of the block token the preview goes after (or before, for a list item's end). */
  anchor: number;
  where: 'after-paragraph' | 'end-of-item' | 'end';
  /** The link is all there is in its paragraph or item, so the preview replaces it. */
  alone: boolean;
  inline: Token;
}

type TokenConstructor = new (type: string, tag: string, nesting: 0) => Token;

/** Adds the previews into `tokens`; returns whether any was added. */
export function addImagePreviews(tokens: Token[], previews: ImagePreviews, Token: TokenConstructor): boolean {
  const candidates = findCandidates(tokens);
  if (new Set(candidates.map((c) => c.href)).size > PREVIEW_LIMIT) return false;
  const seen = new Set<string>();
  const chosen = candidates.filter((c) => isImageUrl(c.href) && !seen.has(c.href) && seen.add(c.href));
  if (chosen.length === 0) return false;

  const after = new Map<number, Token[]>();
  const removed = new Set<number>();
  const atEnd: Token[] = [];
  for (const c of chosen) {
    const preview = previewToken(c, previews, Token);
    if (c.where === 'end') atEnd.push(preview);
    else {
      const list = after.get(c.anchor) ?? [];
      list.push(preview);
      after.set(c.anchor, list);
    }
    if (c.alone && c.where === 'after-paragraph') for (const i of [c.anchor - 2, c.anchor - 1, c.anchor]) removed.add(i);
    if (c.alone && c.where === 'end-of-item') c.inline.children = [];
  }
  const result: Token[] = [];
  tokens.forEach((token, i) => {
    const inserted = after.get(i) ?? [];
    if (tokens[i]!.type === 'list_item_close') result.push(...inserted);
    if (!removed.has(i)) result.push(token);
    if (tokens[i]!.type !== 'list_item_close') result.push(...inserted);
  });
  tokens.splice(0, tokens.length, ...result, ...atEnd);
  return true;
}

function previewToken(c: Candidate, previews: ImagePreviews, Token: TokenConstructor): Token {
  const a = openTag('a', c.title === null ? { href: c.href } : { href: c.href, title: c.title });
  const img = openTag('img', {
    'data-src-fullsize': previews.thumbnailUrl(c.href, 'full'),
    src: previews.thumbnailUrl(c.href, 'thumbnail'),
  });
  const token = new Token('zulip_html', '', 0);
  token.content = `<div class="message_inline_image">${a}${img}</a></div>`;
  return token;
}

// Every link outside quotes, in document order, with where its preview would go.
function findCandidates(tokens: Token[]): Candidate[] {
  const found: Candidate[] = [];
  let quoteDepth = 0;
  tokens.forEach((token, i) => {
    if (token.type === 'blockquote_open') quoteDepth++;
    else if (token.type === 'blockquote_close') quoteDepth--;
    if (token.type !== 'inline' || quoteDepth > 0 || !token.children) return;
    const open = tokens[i - 1];
    const inParagraph = open?.type === 'paragraph_open';
    const inItem = inParagraph && open.hidden;
    let depth = 0;
    token.children.forEach((child, j, children) => {
      if (child.type !== 'link_open') {
        depth += child.nesting;
        return;
      }
      const href = String(child.attrGet('href') ?? '');
      const text = children[j + 1]?.type === 'text' ? children[j + 1]!.content : null;
      const title = text === null || text === href ? null : text;
      const alone = depth === 0 && j === 0 && children.length === 3 && title === null;
      if (depth > 0 || !inParagraph) found.push({ href, title, anchor: -1, where: 'end', alone: false, inline: token });
      else if (inItem) found.push({ href, title, anchor: itemClose(tokens, i), where: 'end-of-item', alone, inline: token });
      else found.push({ href, title, anchor: i + 1, where: 'after-paragraph', alone, inline: token });
      depth += child.nesting;
    });
  });
  return found;
}

// The `list_item_close` of the item holding the inline token at `index`.
function itemClose(tokens: Token[], index: number): number {
  let depth = 0;
  for (let i = index; i < tokens.length; i++) {
    if (tokens[i]!.type === 'list_item_open') depth++;
    if (tokens[i]!.type === 'list_item_close' && depth-- === 0) return i;
  }
  return tokens.length - 1;
}
