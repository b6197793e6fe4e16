/**
 * Quote extent in the reference's dialect: once a line starts a quote (`>` at the margin), the
 * rest of that block of lines, up to a blank line, is quoted too, whatever it holds. CommonMark
 * only continues a quote's paragraph lazily, so `>` (empty) then `text`, or `> a` then `# b`,
 * would end the quote; prefixing those lines with `> ` keeps them inside, as the reference does.
 * Runs after fences are processed, so no code fence is open here.
 */

const QUOTE_LINE = /^ {0,3}>/;

/** The lines with every unquoted line that follows a quote line in the same block quoted. */
export function extendQuotes(lines: readonly string[]): string[] {
  let inQuote = false;
  return lines.map((line) => {
    if (line.trim() === '') {
      inQuote = false;
      return line;
    }
    if (QUOTE_LINE.test(line)) {
      inQuote = true;
      return line;
    }
    return inQuote ? `> ${line}` : line;
  });
}
