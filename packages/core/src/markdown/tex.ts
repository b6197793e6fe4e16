/**
 * Math, rendered on the server with KaTeX as the reference does, so every client shows the same
 * HTML+MathML without running TeX itself. KaTeX stays on its 0.16 line: clients style the output
 * with that line's stylesheet and class names.
 */
import katex from 'katex';

function render(tex: string, displayMode: boolean): string | null {
  try {
    // `strict: 'ignore'`: LaTeX-compatibility warnings would only go to the console.
    return katex.renderToString(tex, { displayMode, throwOnError: true, strict: 'ignore' });
  } catch {
    return null;
  }
}

/** `$$…$$` inside a line; null when the TeX does not parse. */
export const renderInlineMath = (tex: string): string | null => render(tex, false);

/** A ```` ```math ```` block's equation; null when the TeX does not parse. */
export const renderDisplayMath = (tex: string): string | null => render(tex, true);
