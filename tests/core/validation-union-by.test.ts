/**
 * unionBy picks a union's member by the value's shape instead of trying each in turn (which
 * builds a StructError for every member that refuses a valid value). It must accept, coerce
 * and refuse exactly as superstruct's `union` of the same members does.
 */
import { validateInput } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import { MAX_NARROW_CHARS, MAX_NARROW_OPERAND_IDS, MAX_NARROW_TERMS, NarrowParam } from '../../packages/core/src/messages/narrow.js';
import { GetEventsParams } from '../../packages/core/src/schemas/events.js';
import { array, Bool, boolean, Int, List, object, optional, Str, Struct, tuple, union } from '../../packages/core/src/schemas/wire.js';

const type = object;

/** The narrow structs as they were written with `union`. */
const Operand = union([Str, Int, array(Int, MAX_NARROW_OPERAND_IDS)]);
const UnionNarrow = List(union([object({ operator: Str, operand: Operand, negated: optional(boolean()) }), tuple([Str, Operand])]), {
  max: MAX_NARROW_TERMS,
  maxChars: MAX_NARROW_CHARS,
});
const UnionEventsNarrow = List(
  union([tuple([Str, union([Str, Int])]), object({ operator: Str, operand: union([Str, Int, array(Int, MAX_NARROW_OPERAND_IDS)]), negated: optional(Bool) })]),
  { max: MAX_NARROW_TERMS, maxChars: MAX_NARROW_CHARS },
);

const NARROWS: unknown[] = [
  '[]',
  '[{"operator":"channel","operand":5},{"operator":"topic","operand":"lunch"}]',
  '[{"operator":"dm","operand":[1,2,3],"negated":true}]',
  '[["channel","general"],["sender",7]]',
  '[["dm",[1,2]]]',
  '[{"operator":"channel","operand":5.5}]',
  '[{"operator":5,"operand":"x"}]',
  '[{"operator":"is","operand":"starred","negated":"yes"}]',
  '[{"operator":"is","operand":null}]',
  '[{"operator":"is"}]',
  '[{"operator":"is","operand":"x","extra":1}]',
  '[["channel"]]',
  '[["channel","a","b"]]',
  '[[1,"a"]]',
  '[null]',
  '[7]',
  '["{var}"]',
  '[{"operator":"dm","operand":[1,"x"]}]',
  '[{"operator":"dm","operand":[true]}]',
  '{"operator":"channel"}',
  'not json',
  [{ operator: 'channel', operand: 5 }],
  [['topic', 'x']],
];

describe('unionBy', () => {
  it('accepts, coerces and refuses narrows exactly as union does (GET /messages)', () => {
    const params = (narrow: Struct<unknown, unknown>) => type({ narrow });
    for (const narrow of NARROWS) {
      const expected = validateInput(params(UnionNarrow as Struct<unknown, unknown>), { narrow });
      const actual = validateInput(params(NarrowParam as Struct<unknown, unknown>), { narrow });
      expect(actual, JSON.stringify(narrow)).toEqual(expected);
    }
  });

  it('accepts, coerces and refuses narrows exactly as union does (register)', () => {
    for (const narrow of NARROWS) {
      const expected = validateInput(type({ narrow: UnionEventsNarrow as Struct<unknown, unknown> }), { narrow });
      const actual = validateInput(type({ narrow: GetEventsParams.schema.narrow as Struct<unknown, unknown> }), { narrow });
      // GetEventsParams defaults an absent narrow; every value here is present.
      expect(actual, JSON.stringify(narrow)).toEqual(expected);
    }
  });

  it('builds no StructError for a valid narrow', () => {
    // Members are tried through Struct#validate, which builds a StructError for each refusal.
    const validate = Struct.prototype.validate;
    let refusals = 0;
    Struct.prototype.validate = function (this: Struct<unknown, unknown>, ...args: Parameters<typeof validate>) {
      const result = validate.apply(this, args);
      if (result[0]) refusals++;
      return result;
    } as typeof validate;
    try {
      const narrow = '[{"operator":"channel","operand":5},{"operator":"topic","operand":"lunch"},["dm",[1,2]]]';
      expect(validateInput(type({ narrow: NarrowParam }), { narrow }).isOk()).toBe(true);
      expect(refusals).toBe(0);
      // The union it replaces builds some for the same narrow (what this test guards against).
      expect(validateInput(type({ narrow: UnionNarrow }), { narrow }).isOk()).toBe(true);
      expect(refusals).toBeGreaterThan(0);
    } finally {
      Struct.prototype.validate = validate;
    }
  });
});
