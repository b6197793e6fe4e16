/**
 * markdown-it's block rules, adjusted to the reference's block dialect where CommonMark differs.
 * Each adjustment wraps markdown-it's own rule rather than replacing it.
 */
import type { MarkdownIt, StateBlock } from 'markdown-it';

type BlockRule = (state: StateBlock, start: number, end: number, silent: boolean) => boolean;

const lineText = (state: StateBlock, line: number) =>
  state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);

// A paragraph keeps trailing spaces ("test  " renders as typed); markdown-it would trim them.
const keepTrailingSpaces =
  (rule: BlockRule): BlockRule =>
  (state, start, end, silent) => {
    if (!rule(state, start, end, silent)) return false;
    const inline = state.tokens[state.tokens.length - 2];
    if (inline?.type === 'inline') {
      inline.content = state.getLines(start, state.line, state.blkIndent, false).replace(/^\s+/, '').replace(/\n+$/, '');
    }
    return true;
  };

// A quote made only of empty `>` lines is not a quote (`>` alone is text), as in the reference.
const skipEmptyQuotes =
  (rule: BlockRule): BlockRule =>
  (state, start, end, silent) => {
    let line = start;
    while (line < end && /^>\s*$/.test(lineText(state, line))) line++;
    if (line > start && (line === end || state.isEmpty(line))) return false;
    return rule(state, start, end, silent);
  };

// A numbered item ends the paragraph above it at any number, as in the reference ("hanging"
// lists); CommonMark lets only `1.` interrupt a paragraph. Like the reference, only one-digit
// numbers count, so "2017. was a year" stays prose.
const hangingLists =
  (rule: BlockRule): BlockRule =>
  (state, start, end, silent) => {
    const interrupting = silent && state.parentType === 'paragraph' && state.sCount[start]! - state.blkIndent < 4;
    if (interrupting && /^\d\.[ ]+\S/.test(lineText(state, start))) return true;
    return rule(state, start, end, silent);
  };

// Replaces a block rule by a wrapper around markdown-it's own, keeping what it may interrupt.
function wrap(md: MarkdownIt, name: string, wrapper: (rule: BlockRule) => BlockRule): void {
  const entry = md.block.ruler.__rules__.find((rule) => rule.name === name)!;
  md.block.ruler.at(name, wrapper(entry.fn), { alt: entry.alt });
}

/**
 * Sets `md`'s block rules to the reference's dialect: no setext headings, reference links or
 * HTML blocks (it has none) and no fences (fences.ts handles them before parsing); paragraphs
 * keep trailing spaces; empty quotes are text; numbered lists may hang under a paragraph.
 */
export function adaptBlockRules(md: MarkdownIt): void {
  md.block.ruler.disable(['lheading', 'reference', 'fence', 'html_block']);
  wrap(md, 'paragraph', keepTrailingSpaces);
  wrap(md, 'blockquote', skipEmptyQuotes);
  wrap(md, 'list', hangingLists);
}
