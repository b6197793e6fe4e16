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
  '```\n' + '`'.repeat(100),
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
const jsonObject = fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(idText, quoted(anyText), fc.constant('null')), { maxKeys: 5 }).map(
  (entries) => `{${Object.entries(entries).map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`,
);

/** Anything at all, whatever the parameter's type. */
export const anyValue = fc.oneof(anyText, jsonGarbage, idText);

/** What the fuzzer reads of a parameter's superstruct struct (superstruct is the core's dependency, not ours). */
export interface ParamStruct {
  type: string;
  schema: unknown;
}

/** Values aimed at one struct: mostly of its type, sometimes anything. */
export function valueFor(struct: ParamStruct): fc.Arbitrary<string> {
  return fc.oneof({ weight: 6, arbitrary: typedValue(struct) }, { weight: 1, arbitrary: anyValue });
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
      const values = Object.values((struct.schema ?? {}) as Record<string, unknown>).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return values.length > 0 ? fc.oneof(fc.constantFrom(...values), fc.constantFrom(...values).map((v) => JSON.stringify(v))) : anyText;
    }
    case 'array':
      return fc.oneof(jsonList(idText), jsonList(quoted(anyText)), jsonList(jsonObject), jsonGarbage);
    case 'object':
    case 'record':
    case 'dict':
      return fc.oneof(jsonObject, jsonList(jsonObject), jsonGarbage);
    default:
      return fc.oneof(idText, quoted(anyText), jsonObject, jsonList(idText), anyText);
  }
}
