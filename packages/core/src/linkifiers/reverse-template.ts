/**
 * Reverse templates (API.md 2.7): a simple `{variable}` template that turns a linkifier's
 * variables back into the text the pattern matches; `{{` and `}}` are literal braces.
 */

type Part = { literal: string } | { variable: string };

/** The template's parts, or null when a brace is unbalanced or a variable name is empty. */
export function parseReverseTemplate(template: string): Part[] | null {
  const parts: Part[] = [];
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const char = template[i]!;
    if ((char === '{' || char === '}') && template[i + 1] === char) {
      literal += char;
      i++;
    } else if (char === '{') {
      const close = template.indexOf('}', i);
      const name = close === -1 ? '' : template.slice(i + 1, close);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return null;
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ variable: name });
      i = close;
    } else if (char === '}') return null;
    else literal += char;
  }
  if (literal) parts.push({ literal });
  return parts;
}

/** The template with its variables replaced by `values` (a missing one gives ""). */
export function applyReverseTemplate(parts: readonly Part[], values: Readonly<Record<string, string | undefined>>): string {
  return parts.map((part) => ('literal' in part ? part.literal : (values[part.variable] ?? ''))).join('');
}
