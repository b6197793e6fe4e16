/**
 * Form values for a parameter, guided by its superstruct type (`struct.type`): values of the
 * right type (real IDs of this realm, of the other realm and unknown ones), wrong-typed and
 * malformed JSON, unicode edge cases and oversized text. Every value is form text, as HTTP
 * clients send it.
 */
import fc from 'fast-check';

/** IDs of real rows of both realms (the worlds hold a few dozen rows) and IDs of none. */
export const idText = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 60 }).map(String) },
  fc.constantFrom('0', '-1', '9007199254740991', '9007199254740992', '1e3', '1.5', '0x10', '01', ' 1', '1 '),
);

/** Text that is awkward for parsers, renderers and databases. */
const awkwardText = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202etxet',
  '\ufeff',
  '🎉👨‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  '%zz',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE messages; --",
  '@**all**',
  '@*everyone*',
  '#**general>hello**',
  `\`\`\`\n${'`'.repeat(100)}`,
  '$$\\frac{1}{2}$$',
  '[x](javascript:alert(1))',
  'general',
  'secret',
  'elsewhere',
  'member@example.com',
  'boss@other.example.com',
  'narrow/is/starred',
);

/** Sizes around and beyond every limit the API documents (topic 60, names 60-100, content 10k+). */
const oversizedText = fc
  .tuple(fc.constantFrom('a', 'é', '🎉', '[', '{', '*', '\u0000', '1,'), fc.constantFrom(61, 101, 1_001, 10_001, 100_001, 1_000_001))
  .map(([unit, count]) => unit.repeat(count));

export const anyText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: awkwardText },
  { weight: 1, arbitrary: oversizedText },
);

/** JSON documents of every type, some of them malformed or deeply nested. */
const jsonGarbage = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('null', 'true', '[]', '{}', '[null]', '[[]]', '{"a":[1]}', '[1,]', '{', '"unterminated', 'NaN', 'Infinity', '1e400', '-0'),
  fc.integer({ min: 2, max: 100_000 }).map((depth) => `${'['.repeat(depth)}1${']'.repeat(depth)}`),
  fc.integer({ min: 2, max: 200_000 }).map((count) => `[${Array.from({ length: count }, (_, i) => i + 1).join(',')}]`),
  fc.integer({ min: 2, max: 50_000 }).map((count) => `{${Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',')}}`),
);

const jsonList = (item: fc.Arbitrary<string>) => fc.array(item, { maxLength: 8 }).map((items) => `[${items.join(',')}]`);
const quoted = (text: fc.Arbitrary<string>) => text.map((t) => JSON.stringify(t));
/** Keys the API's JSON objects use (narrow terms, subscription properties, drafts, widgets...). */
const API_KEYS = ['operator', 'operand', 'negated', 'name', 'description', 'color', 'property', 'value', 'stream_id', 'topic', 'user_id', 'type', 'to', 'content', 'timestamp', 'id', 'emoji_name', 'is_muted', 'pin_to_top', 'in_home_view', 'new', 'old', 'field_id', 'widget_type', 'extra_data', 'choices', 'tasks', 'status_text'];
/** Narrow operators, real and not. */
const OPERATORS = ['channel', 'stream', 'topic', 'sender', 'dm', 'pm-with', 'dm-including', 'group-pm-with', 'is', 'search', 'near', 'id', 'with', 'has', 'in', 'channels', 'streams', 'bogus'];

const jsonScalar = fc.oneof(idText, quoted(anyText), quoted(fc.constantFrom(...OPERATORS, 'starred', 'mentioned', 'unread', 'dm', 'private', 'public', 'web-public', 'all', 'link', 'image', 'attachment', 'reaction', 'followed', 'muted', 'resolved')), fc.constantFrom('null', 'true', 'false', '[]', '{}'));
const jsonObject = fc
  .dictionary(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...API_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }), fc.oneof({ weight: 4, arbitrary: jsonScalar }, { weight: 1, arbitrary: jsonList(jsonScalar) }), { maxKeys: 5 })
  .map((entries) => `{${Object.entries(entries).map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
/** A narrow term, in the object form and the legacy pair form. */
const narrowTerm = fc.oneof(
  fc.tuple(fc.constantFrom(...OPERATORS), jsonScalar, fc.constantFrom('', ',"negated":true', ',"negated":"yes"')).map(([op, operand, negated]) => `{"operator":"${op}","operand":${operand}${negated}}`),
  fc.tuple(fc.constantFrom(...OPERATORS), jsonScalar).map(([op, operand]) => `["${op}",${operand}]`),
);

/** Anything at all, whatever the parameter's type. */
export const anyValue = fc.oneof(anyText, jsonGarbage, idText, jsonObject, jsonList(jsonObject), jsonList(narrowTerm));

/** What the fuzzer reads of a parameter's superstruct struct (superstruct is the core's dependency, not ours). */
export interface ParamStruct {
  type: string;
  schema: unknown;
}

/**
 * Plausible values for common parameter names, so that some cases get past validation to the
 * deeper work (sending, moving, narrowing); the name is the only thing the fuzzer knows of them.
 */
const HINTS: Record<string, readonly string[]> = {
  to: ['general', 'secret', 'elsewhere', '"general"', '[2]', '[3,4]', '[1]', '[]', '["member@example.com"]', '1', '3'],
  type: ['stream', 'channel', 'direct', 'private'],
  topic: ['hello', 'other', '', 'moved', 'hidden'],
  content: ['hi', '**bold** @**all** #**general>hello** :smile:', '/poll Q\nA\nB', '```\ncode\n```'],
  anchor: ['newest', 'oldest', 'first_unread', '1', '3', 'date'],
  num_before: ['0', '10', '5000'],
  num_after: ['0', '10', '5000'],
  op: ['add', 'remove'],
  flag: ['read', 'starred', 'collapsed', 'mentioned'],
  emoji_name: ['smile', 'fuzz', '+1', 'zulip'],
  propagate_mode: ['change_one', 'change_later', 'change_all'],
  stream_id: ['1', '2', '3'],
  user_id: ['1', '2', '3', '4'],
  message_id: ['1', '2', '3', '4', '5'],
  messages: ['[1,2,3]', '[4]', '[5]'],
  subscriptions: ['[{"name":"general"}]', '[{"name":"new one"}]', '["general"]', '[{"name":"secret"}]'],
  principals: ['[2]', '[3]', '["member@example.com"]'],
  narrow: ['[]', '[{"operator":"channel","operand":"general"}]', '[["topic","hello"]]', '[{"operator":"is","operand":"starred"}]'],
  event_types: ['["message"]', '["realm","stream"]', '[]'],
  status: ['active', 'idle'],
};

/** Only plausible values for a parameter with a hint; undefined for the others. */
export const plausibleValue = (name: string): fc.Arbitrary<string> | undefined => (HINTS[name] ? fc.constantFrom(...HINTS[name]!) : undefined);

/** Values aimed at one parameter: a hint for its name, mostly of its type, sometimes anything. */
export function valueFor(name: string, struct: ParamStruct): fc.Arbitrary<string> {
  const hint = HINTS[name];
  const typed = fc.oneof({ weight: 6, arbitrary: typedValue(struct) }, { weight: 1, arbitrary: anyValue });
  return hint ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...hint) }, { weight: 1, arbitrary: typed }) : typed;
}

function typedValue(struct: ParamStruct): fc.Arbitrary<string> {
  switch (struct.type) {
    case 'integer':
      return idText;
    case 'boolean':
      return fc.constantFrom('true', 'false', 'True', '1', '0', '"true"', 'null');
    case 'string':
    case 'url':
      return anyText;
    case 'enum': {
      const values = Object.values((struct.schema ?? {})).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return values.length > 0 ? fc.oneof(fc.constantFrom(...values), fc.constantFrom(...values).map((v) => JSON.stringify(v))) : anyText;
    }
    case 'array':
      return fc.oneof(jsonList(idText), jsonList(quoted(anyText)), jsonList(jsonObject), jsonList(narrowTerm), jsonGarbage);
    case 'object':
    case 'record':
    case 'dict':
      return fc.oneof(jsonObject, jsonList(jsonObject), jsonGarbage);
    default:
      return fc.oneof(idText, quoted(anyText), jsonObject, jsonList(idText), jsonList(narrowTerm), jsonList(jsonObject), anyText);
  }
}
