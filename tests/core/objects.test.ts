/** extend and copyOf (packages/core/src/objects.ts) give what the spreads they replace give. */
import fc from 'fast-check';
import { copyOf, extend } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';

const plain = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 8 });

describe('extend', () => {
  it('equals { ...base, ...extra }: same keys, same order, extra winning', () => {
    fc.assert(
      fc.property(plain, plain, (base, extra) => {
        const made = extend(base, extra);
        expect(made).toStrictEqual({ ...base, ...extra });
        expect(Object.keys(made)).toEqual(Object.keys({ ...base, ...extra }));
      }),
    );
  });

  it('keeps an own __proto__ key as a field, never as the prototype', () => {
    const base = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const made = extend(base, { b: 2 });
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(Object.hasOwn(made, '__proto__')).toBe(true);
    expect((made as { polluted?: boolean }).polluted).toBeUndefined();
    const viaExtra = extend({ a: 1 }, base);
    expect(Object.getPrototypeOf(viaExtra)).toBe(Object.prototype);
    expect(Object.hasOwn(viaExtra, '__proto__')).toBe(true);
  });

  it('copies symbols and leaves the inputs alone', () => {
    const key = Symbol('k');
    const base = { a: 1, [key]: 'symbol' };
    const made = extend(base, { b: 2 });
    expect(made[key]).toBe('symbol');
    expect(base).toStrictEqual({ a: 1, [key]: 'symbol' });
  });
});

describe('copyOf', () => {
  it('is a shallow copy equal to { ...base }', () => {
    fc.assert(
      fc.property(plain, (base) => {
        const copy = copyOf(base);
        expect(copy).not.toBe(base);
        expect(copy).toStrictEqual({ ...base });
      }),
    );
  });

  it('keeps an own __proto__ key as a field', () => {
    const base = JSON.parse('{"__proto__": "x"}') as object;
    const copy = copyOf(base);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
  });
});
