/** What a rendering's links say about the message: `has:link` and its uploaded files. */
import type { Token } from 'markdown-it';
import { splitUrl } from './url.js';

/** Every link's href in the rendering, in document order. */
export function linkHrefs(tokens: readonly Token[]): string[] {
  const hrefs: string[] = [];
  const walk = (list: readonly Token[]) => {
    for (const token of list) {
      if (token.type === 'link_open') hrefs.push(String(token.attrGet('href') ?? ''));
      if (token.children) walk(token.children);
    }
  };
  walk(tokens);
  return hrefs;
}

/**
 * The `path_id`s of links to this realm's uploads (`/user_uploads/<path_id>`, relative or
 * absolute on the realm's host), each once, in order.
 */
export function uploadPathIds(hrefs: readonly string[], realmUrl: string): string[] {
  const realmHost = splitUrl(realmUrl).netloc;
  const ids = new Set<string>();
  for (const href of hrefs) {
    const { netloc, path } = splitUrl(href.startsWith('user_uploads/') ? `/${href}` : href);
    if (netloc !== '' && netloc !== realmHost) continue;
    if (path.startsWith('/user_uploads/') && path.length > '/user_uploads/'.length) ids.add(path.slice('/user_uploads/'.length));
  }
  return [...ids];
}
