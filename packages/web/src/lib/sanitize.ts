/**
 * The server's rendered message HTML, sanitized before it touches the DOM. The server escapes
 * what people type; this is the second wall, so a rendering bug or a hostile server cannot run
 * script here. DOMPurify with an allow-list of the tags and attributes that rendered Markdown
 * uses: anything else (script, style, iframes, event handlers, `javascript:` URLs, forms) is
 * dropped.
 */
import DOMPurify from 'dompurify';
import { glyphOf } from './emoji';

const ALLOWED_TAGS = [
  'a', 'b', 'blockquote', 'br', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img',
  'li', 'ol', 'p', 'pre', 's', 'span', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'th', 'thead', 'time', 'tr', 'ul',
];

/** Attributes whose values are plain text, never URLs (DOMPurify checks every other one as a URL). */
const TEXT_ATTR = ['colspan', 'datetime', 'rowspan', 'data-user-id', 'data-user-group-id', 'data-stream-id', 'data-code-language', 'data-emoji-name'];

const ALLOWED_ATTR = ['alt', 'class', 'href', 'src', 'title', ...TEXT_ATTR];

/** Links and images: web and mail URLs, the server's own paths and in-app hashes; no `javascript:` or `data:`. */
const ALLOWED_URI_REGEXP = /^(?:https?:|mailto:|\/(?!\/)|#)/i;

/** Where the server keeps uploads, and the attribute an upload image's path waits in. */
export const UPLOADS_PATH = '/user_uploads/';
export const UPLOAD_SRC_ATTR = 'data-upload-src';

const purifier = DOMPurify();

purifier.addHook('afterSanitizeAttributes', (node) => {
  // DOMPurify lets images keep data: URLs whatever the allow-list says; this list has no data: URLs at all.
  for (const name of ['src', 'href']) {
    const value = node.getAttribute(name);
    if (value !== null && !ALLOWED_URI_REGEXP.test(value.trim())) node.removeAttribute(name);
  }
  if (node.tagName === 'A') {
    const href = node.getAttribute('href');
    // The server writes in-app links from the root (`/#narrow/…`): they stay in this tab.
    if (href?.startsWith('/#')) node.setAttribute('href', href.slice(1));
    // Other links open elsewhere, and the page they open cannot reach back into this one.
    else if (href && !href.startsWith('#')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  }
  // Uploaded images need the API key, which an <img> cannot send (and the server's 401 would
  // open the browser's password dialog): components/message-content.tsx loads them instead.
  if (node.tagName === 'IMG' && node.getAttribute('src')?.startsWith(UPLOADS_PATH)) {
    node.setAttribute(UPLOAD_SRC_ATTR, node.getAttribute('src')!);
    node.removeAttribute('src');
  }
  // Emoji come as `:name:` text in a span whose class names the code point; show the glyph.
  const code = node.tagName === 'SPAN' ? /(?:^|\s)emoji-([0-9a-f-]+)(?:\s|$)/.exec(node.getAttribute('class') ?? '')?.[1] : undefined;
  if (code) {
    const glyph = glyphOf(code);
    if (glyph) node.textContent = glyph;
  }
});

export function sanitizeMessageHtml(html: string): string {
  return purifier.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP,
    ADD_URI_SAFE_ATTR: TEXT_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  }) as string;
}
