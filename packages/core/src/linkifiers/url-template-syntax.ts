/**
 * RFC 6570 syntax checking, which the url-template package (used to expand) does not do: it
 * expands any text. The reference validates with `uri_template.validate` (syntax only, every
 * level), so a template is refused for an unbalanced brace or a malformed expression.
 */

const VARCHAR = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})';
const VARSPEC = new RegExp(`^(${VARCHAR}(?:\\.?${VARCHAR})*)(?::[1-9][0-9]{0,3}|\\*)?$`);
// Operators of levels 2 and 3; `=,!@|` are reserved for future extensions and so invalid.
const OPERATOR = /^[+#./;?&]/;

/** The variable names of an RFC 6570 template, in order of appearance, or null when it is invalid. */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  let position = 0;
  while (position < template.length) {
    const open = template.indexOf('{', position);
    const literal = template.slice(position, open === -1 ? undefined : open);
    if (literal.includes('}')) return null;
    if (open === -1) break;
    const close = template.indexOf('}', open);
    if (close === -1) return null;
    let body = template.slice(open + 1, close);
    if (OPERATOR.test(body)) body = body.slice(1);
    for (const spec of body.split(',')) {
      const match = VARSPEC.exec(spec);
      if (!match) return null;
      names.push(match[1]!);
    }
    position = close + 1;
  }
  return names;
}
