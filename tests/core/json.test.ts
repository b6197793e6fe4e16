import { serializeOnce, toJson, withSharedParts } from '@teamchat/core';
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
});
