/** Inline code: any run of backticks up to the next run of the same length. */
import type { InlinePattern } from './engine.js';

/**
 * The reference's code span. Unlike CommonMark it keeps the spaces at both ends (`` ` a ` ``
 * shows ` a `), which is how messages show padded snippets.
 */
export const inlineCode: InlinePattern = {
  name: 'backtick',
  regex: /(?<!\\)(`+)([\s\S]+?)(?<!`)\1(?!`)/g,
  handle: (match) => ({ node: { kind: 'code', text: match[2]! } }),
};
