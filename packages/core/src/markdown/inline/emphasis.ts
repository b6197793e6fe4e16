/**
 * Bold, italic and strikethrough in the reference's dialect: only `*` marks emphasis (`_foo_` and
 * `__foo__` stay as typed, so snake_case is safe), emphasis never spans lines, and a `*` next to
 * a space does not open or close (`char *x = (char *)y` stays plain).
 */
import type { InlinePattern } from './engine.js';

const tag = (name: string, content: string) => ({ kind: 'element' as const, tag: name, attrs: {}, content });

/** `***text***`: bold italic. */
export const strongEm: InlinePattern = {
  name: 'strong_em',
  regex: /(\*\*\*)(?!\s)([^*^\n]+)(?<!\s)\*\*\*/g,
  handle: (match, env, nested) => {
    const em = env.stash.add(tag('em', nested(match[2]!)), match[2]!);
    return { node: tag('strong', em) };
  },
};

/** `**text**` on one line. */
export const strong: InlinePattern = {
  name: 'strong',
  regex: /(\*\*)([^\n]+?)\*\*/g,
  handle: (match, _env, nested) => ({ node: tag('strong', nested(match[2]!)) }),
};

/** `*text*` on one line, not touching spaces inside the stars. */
export const emphasis: InlinePattern = {
  name: 'emphasis',
  regex: /(\*)(?!\s)([^*^\n]+)(?<!\s)\*/g,
  handle: (match, _env, nested) => ({ node: tag('em', nested(match[2]!)) }),
};

/** `~~text~~` on one line. */
export const strikethrough: InlinePattern = {
  name: 'del',
  regex: /(?<!~)(~~)([^~\n]+?)(~~)(?!~)/g,
  handle: (match, _env, nested) => ({ node: tag('del', nested(match[2]!)) }),
};
