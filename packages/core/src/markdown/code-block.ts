/**
 * The HTML of a code block, fenced or indented, in the reference's shape:
 * `<div class="codehilite" data-code-language="Python"><pre><span></span><code>…</code></pre></div>`.
 * The reference fills `<code>` with syntax-highlighting spans; clients restyle code themselves,
 * so we emit the escaped text alone (the same HTML the reference's own web client produces).
 */
import { codeLanguageName } from './code-languages.js';
import { escapeCode } from './html.js';

/**
 * Renders code. Leading and trailing blank lines go and the code ends with one newline, as
 * the highlighter leaves it; `lang` (already lowercased) adds `data-code-language`.
 */
export function renderCodeBlock(code: string, lang: string | null): string {
  const body = code.replace(/^\n+/, '').replace(/\n+$/, '');
  const language = lang ? ` data-code-language="${escapeCode(codeLanguageName(lang))}"` : '';
  return `<div class="codehilite"${language}><pre><span></span><code>${escapeCode(body)}\n</code></pre></div>`;
}
