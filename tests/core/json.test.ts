import { extendedCopy, serializeOnce, toJson, withSharedParts } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';

describe('toJson', () => {
  it('equals JSON.stringify for unmarked values of every kind', () => {
    const values = [null, 1, 'a"b', true, [1, undefined, () => 1], { a: 1, b: undefined, c: [{ d: 'e' }], when: new Date(0) }];
    for (const value of values) expect(toJson(value)).toBe(JSON.stringify(value));
  });

  it('equals JSON.stringify for marked containers, leaving out what JSON.stringify leaves out', () => {
    const shared = serializeOnce({ html: '<p>hi</p>', n: [1, 2] });
    const value = withSharedParts({
      events: withSharedParts([withSharedParts({ type: 'message', message: shared, flags: [], gone: undefined, fn: () => 1 }), undefined]),
      queue_id: 'q',
      when: new Date(0),
    });
    expect(toJson(value)).toBe(JSON.stringify(value));
  });

  it('serializes a part marked serializeOnce once, however many answers carry it', () => {
    let reads = 0;
    const message = serializeOnce({
      get content() {
        reads += 1;
        return 'text';
      },
    });
    const answers = [1, 2, 3].map((id) => withSharedParts({ events: withSharedParts([withSharedParts({ id, message })]) }));
    const texts = answers.map(toJson);
    expect(reads).toBe(1);
    expect(texts.map((text) => JSON.parse(text))).toEqual([1, 2, 3].map((id) => ({ events: [{ id, message: { content: 'text' } }] })));
  });

  it('does not walk into an unmarked container, so marks below it are not looked for', () => {
    const message = serializeOnce({ a: 1 });
    expect(toJson({ events: [{ message }] })).toBe('{"events":[{"message":{"a":1}}]}');
  });

  it('walks unmarked plain objects and arrays down to the levels a container was marked with', () => {
    let reads = 0;
    const message = serializeOnce({
      get content() {
        reads += 1;
        return 'text';
      },
    });
    const answer = (id: number) => withSharedParts({ events: [{ id, message, when: new Date(0), deep: [{ message }] }], queue_id: 'q' }, 3);
    const texts = [1, 2, 3].map((id) => toJson(answer(id)));
    for (const [i, text] of texts.entries()) expect(text).toBe(JSON.stringify(answer(i + 1)));
    // The three toJson calls read it once at level 3, and once each below it (`deep` is beyond
    // the marked levels, so it is serialized whole); each JSON.stringify above reads it twice.
    expect(reads).toBe(1 + 3 + 3 * 2);
  });

  it('does not walk below the marked levels, nor into values with toJSON', () => {
    const inner = { toJSON: () => 'custom' };
    const value = withSharedParts({ a: [{ b: inner }], c: new Map([[1, 2]]) }, 5);
    expect(toJson(value)).toBe(JSON.stringify(value));
  });

  it('an extended copy is the spread with the field last, and its text equals JSON.stringify of it', () => {
    const bases: object[] = [
      { type: 'message', message: { a: 1 }, flags: [] },
      {},
      { gone: undefined, fn: () => 1, kept: 'x"y' },
      // Already holding the key: the spread keeps its place, so the copy is walked as any object.
      { id: 7, type: 'test' },
      { type: 'dated', when: new Date(0) },
      // Not plain: the spread drops toJSON's meaning, so the copy is walked as any object.
      Object.assign(Object.create({ inherited: 1 }), { own: 2 }),
      { toJSON: () => 'custom', own: 3 },
    ];
    for (const base of bases) {
      for (const value of [0, 41, 'q"1']) {
        const copy = extendedCopy(base, 'id', value);
        expect(copy).toEqual({ ...base, id: value });
        expect(Object.keys(copy)).toEqual(Object.keys({ ...base, id: value }));
        expect(toJson(copy)).toBe(JSON.stringify(copy));
        expect(toJson(withSharedParts({ events: [copy], queue_id: 'q' }, 3))).toBe(JSON.stringify({ events: [copy], queue_id: 'q' }));
      }
    }
  });

  it('copies of a base marked serializeOnce serialize the base once between them', () => {
    let reads = 0;
    const event = serializeOnce({
      type: 'message',
      get content() {
        reads += 1;
        return 'text';
      },
    });
    const answers = [0, 1, 2, 3].map((id) => withSharedParts({ events: [extendedCopy(event, 'id', id)], queue_id: `q${id}` }, 3));
    const texts = answers.map(toJson);
    // One read by toJson; the copies were made by spreading, which read it once each.
    expect(reads).toBe(4 + 1);
    expect(texts).toEqual([0, 1, 2, 3].map((id) => `{"events":[{"type":"message","content":"text","id":${id}}],"queue_id":"q${id}"}`));
  });
});
