/**
 * Stand-ins for HTML that is built before (or beside) Markdown parsing: fenced code, spoiler
 * frames and display math are rendered first and parked here, and Markdown only sees a
 * placeholder line. The placeholder characters (STX, ETX) are removed from every message before
 * parsing, so user text can never forge one.
 */
const STX = '\u0002';
const ETX = '\u0003';

/** Removes the placeholder delimiters from user text. */
export const stripPlaceholderChars = (text: string): string => text.replace(/[\u0002\u0003]/g, '');

// Tags whose HTML stands as a block of its own, so `<p>placeholder</p>` becomes just the HTML
// (Python-Markdown's `isblocklevel`); anything else, like math's `<span>`, stays in its paragraph.
const BLOCK_TAG = /^<\/?(div|blockquote|pre|p|ul|ol|table|h[1-6])\b/;

/** Block-level HTML parked during preprocessing and put back into the rendered output. */
export class BlockStash {
  private readonly entries: string[] = [];

  /** Parks trusted HTML and returns the line that stands for it. */
  store(html: string): string {
    this.entries.push(html);
    return `${STX}B${this.entries.length - 1}${ETX}`;
  }

  /** Puts every parked piece back into rendered HTML. */
  restore(html: string): string {
    return html
      .replace(/<p>\u0002B(\d+)\u0003<\/p>/g, (whole, n: string) => {
        const stored = this.entries[Number(n)]!;
        return BLOCK_TAG.test(stored) ? stored : whole;
      })
      .replace(/\u0002B(\d+)\u0003/g, (_, n: string) => this.entries[Number(n)]!);
  }
}

/** The inline stash's placeholder for entry `n`. */
export const inlinePlaceholder = (n: number): string => `${STX}${n}${ETX}`;

/** Matches inline placeholders; group 1 is the entry number. */
export const INLINE_PLACEHOLDER = /\u0002(\d+)\u0003/g;
