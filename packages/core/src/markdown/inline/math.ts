/** `$$…$$` inline math. */
import { renderInlineMath } from '../tex.js';
import type { InlinePattern } from './engine.js';

/**
 * Inline TeX between `$$` pairs on one line, not starting with `_` (so `$$_$$` is money talk) and
 * not touching other `$`. TeX that does not parse shows as typed inside a `tex-error` span.
 */
export const inlineMath: InlinePattern = {
  name: 'tex',
  regex: /\B(?<!\$)\$\$(?<body>[^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)\B/g,
  handle: (match) => {
    const body = match.groups!.body!;
    const html = renderInlineMath(body);
    if (html !== null) return { node: { kind: 'html', html } };
    return { node: { kind: 'element', tag: 'span', attrs: { class: 'tex-error' }, content: `$$${body}$$` } };
  },
};
