/**
 * A small HTML tree for our own rendered messages (well-formed, from the Markdown renderer),
 * in lxml's shape: each element has its leading `text` and the `tail` that follows it. The
 * push content conversion walks it as the reference walks lxml.
 */

export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlElement[];
  /** Text before the first child. */
  text: string;
  /** Text after the element's end tag, up to its next sibling. */
  tail: string;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes character references (named ones our renderer writes, and numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return codePoint(parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return codePoint(parseInt(name.slice(1), 10), whole);
    return ENTITIES[name] ?? whole;
  });
}

function codePoint(value: number, fallback: string): string {
  return Number.isInteger(value) && value >= 0 && value <= 0x10ffff ? String.fromCodePoint(value) : fallback;
}

function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of source.matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    attrs[match[1]!.toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attrs;
}

/** Parses `html` under a `div` root; unmatched end tags are ignored, unclosed elements end with their parent. */
export function parseFragment(html: string): HtmlElement {
  const root: HtmlElement = { tag: 'div', attrs: {}, children: [], text: '', tail: '' };
  const open: HtmlElement[] = [root];
  const addText = (text: string) => {
    const parent = open[open.length - 1]!;
    const last = parent.children[parent.children.length - 1];
    if (last) last.tail += text;
    else parent.text += text;
  };
  for (const [token] of html.matchAll(/<!--[\s\S]*?-->|<\/?[a-zA-Z][^>]*>|[^<]+|</g)) {
    if (token.startsWith('<!--')) continue;
    const end = /^<\/([a-zA-Z][\w-]*)/.exec(token);
    if (end) {
      const tag = end[1]!.toLowerCase();
      const at = open.map((e) => e.tag).lastIndexOf(tag);
      if (at > 0) open.length = at;
      continue;
    }
    const start = /^<([a-zA-Z][\w-]*)([\s\S]*?)(\/?)>$/.exec(token);
    if (!start) {
      addText(decodeEntities(token));
      continue;
    }
    const element: HtmlElement = { tag: start[1]!.toLowerCase(), attrs: parseAttributes(start[2]!), children: [], text: '', tail: '' };
    open[open.length - 1]!.children.push(element);
    if (!VOID.has(element.tag) && start[3] !== '/') open.push(element);
  }
  return root;
}

/** All text inside `element` (lxml's text_content), without its tail. */
export function textContent(element: HtmlElement): string {
  return element.text + element.children.map((child) => textContent(child) + child.tail).join('');
}

export const hasClass = (element: HtmlElement, name: string) => (element.attrs.class ?? '').split(/\s+/).includes(name);

/** Every descendant of `element` (not itself) that passes `test`, in document order. */
export function findAll(element: HtmlElement, test: (e: HtmlElement) => boolean): HtmlElement[] {
  return element.children.flatMap((child) => [...(test(child) ? [child] : []), ...findAll(child, test)]);
}
