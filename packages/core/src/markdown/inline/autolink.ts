/** Bare URLs and email addresses become links. */
import { relativeToRealm, sanitizeUrl } from '../url.js';
import { webLinkRegex } from '../web-link-regex.js';
import type { InlinePattern } from './engine.js';

/**
 * A bare link shows its text as typed; the href gets `http://` or `mailto:` when it has no
 * scheme. One whose scheme is not allowed stays text.
 */
export const autolink: InlinePattern = {
  name: 'autolink',
  get regex() {
    return webLinkRegex();
  },
  handle: (match, env) => {
    const url = match.groups!.url!;
    const sanitized = sanitizeUrl(env.stash.toSource(url));
    if (sanitized === null) return { node: { kind: 'text', text: env.stash.toSource(url) } };
    const href = relativeToRealm(env.ctx.realmUrl, sanitized);
    return { node: { kind: 'element', tag: 'a', attrs: { href }, content: url } };
  },
};
