/**
 * Fenced blocks, handled line by line before Markdown parsing as the reference does, because its
 * fences nest in ways CommonMark's do not: a ```` ```quote ```` or ```` ```spoiler ```` block's
 * content is Markdown (and may hold further fences), and a block closes at the first line that
 * is exactly its own fence, even when a nested block of the same fence is open. Code and math
 * become parked HTML; quotes become `> ` lines; spoilers become parked frames around Markdown.
 */
import { renderCodeBlock } from './code-block.js';
import { escapeCode } from './html.js';
import type { BlockStash } from './placeholders.js';
import { renderDisplayMath } from './tex.js';

/** A fence line: the fence, then optionally a language and a header (used by spoilers). */
export const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

// Deeper fences stay text: each level re-prefixes every line inside it, so nesting costs
// quadratic time and space, and no one quotes twenty levels deep.
const MAX_DEPTH = 20;

interface Handler {
  /** Takes the next line. */
  line(line: string): void;
  /** Closes the block, writing its output into the parent's lines. */
  done(): void;
}

/** Rewrites the message's lines, parking code, math and spoiler frames in `stash`. */
export function processFences(lines: readonly string[], stash: BlockStash, defaultLanguage: string | null): string[] {
  const output: string[] = [];
  const handlers: Handler[] = [];

  const emit = (target: string[], text: string) => target.push('', ...text.split('\n'), '');

  // Opens a handler when `line` is a fence, else passes the line to `target`.
  const checkForFence = (target: string[], line: string) => {
    const match = FENCE_RE.exec(line);
    if (!match || handlers.length > MAX_DEPTH) {
      target.push(line);
      return;
    }
    const fence = match[1]!;
    const lang = (match[2] ?? defaultLanguage ?? '').toLowerCase() || null;
    const header = match[3] ?? null;
    handlers.push(blockHandler(target, fence, lang, header));
  };

  const blockHandler = (target: string[], fence: string, lang: string | null, header: string | null): Handler => {
    const content: string[] = [];
    const isMarkdown = lang === 'quote' || lang === 'quoted' || lang === 'spoiler';
    return {
      line(line) {
        if (line.trimEnd() === fence) this.done();
        else if (isMarkdown) checkForFence(content, line);
        else content.push(line.trimEnd());
      },
      done() {
        handlers.pop();
        if (content.length === 0) return;
        const text = content.join('\n');
        if (lang === 'quote' || lang === 'quoted') emit(target, text.split('\n').map((l) => `> ${l}`).join('\n'));
        else if (lang === 'spoiler') emit(target, spoiler(stash, header, text));
        else if (lang === 'math') emit(target, stash.store(displayMath(text)));
        else emit(target, stash.store(renderCodeBlock(text, lang)));
      },
    };
  };

  for (const line of lines) {
    const open = handlers[handlers.length - 1];
    if (open) open.line(line);
    else checkForFence(output, line);
  }
  // Blocks still open at the end of the message close there.
  while (handlers.length > 0) handlers[handlers.length - 1]!.done();
  return output;
}

function spoiler(stash: BlockStash, header: string | null, text: string): string {
  const parts = [stash.store('<div class="spoiler-block"><div class="spoiler-header">')];
  if (header !== null) parts.push(header);
  parts.push(stash.store('</div><div class="spoiler-content" aria-hidden="true">'), text, stash.store('</div></div>'));
  return parts.join('\n\n');
}

// Each blank-line-separated part is its own equation; one that fails shows its source, escaped
// as the reference escapes it there (`'` as `&#x27;`).
function displayMath(text: string): string {
  const error = (tex: string) => `<span class="tex-error">${escapeCode(tex).replace(/&#39;/g, '&#x27;')}</span>`;
  return text
    .split('\n\n')
    .map((tex) => renderDisplayMath(tex) ?? error(tex))
    .join('\n\n');
}
