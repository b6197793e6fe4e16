/**
 * validateInput runs structs through run-struct.ts (superstruct's `run` without generators, taking
 * the shortcuts of known-structs.ts) instead of superstruct's `validate`. For every parameter
 * struct of the core, on form text and on typed values, valid and not, it must coerce to the same
 * value and refuse with the same first failure, hence the same API error, as superstruct did.
 */
import { validateInput } from '@teamchat/core/internal';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { err, ok, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../packages/core/src/errors.js';
import { Refusal, runStruct } from '../../packages/core/src/schemas/run-struct.js';
import { toApiError } from '../../packages/core/src/schemas/validate.js';
import { Struct, type StructError, superstructValidate as validate } from '../../packages/core/src/schemas/wire.js';
import { anyValue, valueFor } from '../fuzz/param-values.js';

type Params = Struct<unknown, unknown>;

/** validateInput as it was: superstruct's `validate`, the error made from the StructError. */
function referenceValidateInput(struct: Params, input: unknown): Result<unknown, ApiError> {
  const [error, value] = validate(input ?? {}, struct, { coerce: true });
  return error ? err(referenceApiError(error)) : ok(value);
}

/** The first failure of a StructError, its message without the "At path: …" prefix superstruct puts before it. */
function referenceApiError(error: StructError): ApiError {
  const prefix = error.path.length === 0 ? '' : `At path: ${error.path.join('.')} -- `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return toApiError({ ...error, message });
}

/** Every parameter struct the core exports from its schema modules (and the narrow's). */
async function parameterStructs(): Promise<[string, Params][]> {
  const dir = new URL('../../packages/core/src/schemas/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => new URL(f, dir).href);
  files.push(new URL('../../packages/core/src/messages/narrow.ts', import.meta.url).href);
  const found: [string, Params][] = [];
  for (const file of files) {
    for (const [name, value] of Object.entries(await import(file))) {
      if (value instanceof Struct) found.push([`${file.split('/').pop()}:${name}`, value as Params]);
    }
  }
  return found;
}

/** The same input twice, as separate objects: a run may coerce (copy) but must not share. */
const twice = (input: unknown): [unknown, unknown] => [structuredClone(input), structuredClone(input)];

/** What `run` gave: its result, or what it threw (superstruct's messages print the value, and some values cannot be printed). */
function outcome<T>(run: () => T): { value: T } | { thrown: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { thrown: String(error) };
  }
}

function expectSameOutcome(struct: Params, input: unknown) {
  const [mine, theirs] = twice(input);
  const gotOutcome = outcome(() => validateInput(struct, mine));
  const expectedOutcome = outcome(() => referenceValidateInput(struct, theirs));
  if ('thrown' in gotOutcome || 'thrown' in expectedOutcome) {
    expect(gotOutcome).toEqual(expectedOutcome);
    return;
  }
  const got = gotOutcome.value;
  const expected = expectedOutcome.value;
  expect(got.isOk()).toBe(expected.isOk());
  if (got.isOk()) expect(got.value).toStrictEqual(expected._unsafeUnwrap());
  else expect(got._unsafeUnwrapErr()).toEqual(expected._unsafeUnwrapErr());
}

/**
 * Form text for a struct's fields (some left out, some extra), as a transport hands it over; for
 * a struct of one value (a narrow, an ID), that value's text (named as its export, `NarrowParam`:
 * `narrow`, for the fuzzer's hints).
 */
function formInput(struct: Params, name: string): fc.Arbitrary<unknown> {
  if (struct.type !== 'type' && struct.type !== 'object') {
    return valueFor(name.replace(/^.*:/, '').replace(/Param$/, '').toLowerCase(), struct as Params & { schema: unknown });
  }
  const schema = (struct.schema ?? {}) as Record<string, { type: string; schema: unknown }>;
  const fields = Object.keys(schema).map((key) => [key, fc.option(valueFor(key, schema[key]!), { nil: undefined })] as const);
  return fc
    .tuple(fc.record(Object.fromEntries(fields)), fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 2 }))
    .map(([named, extra]) => Object.fromEntries(Object.entries({ ...extra, ...named }).filter(([, v]) => v !== undefined)) as Record<string, string>);
}

/**
 * Typed values for a struct's fields, as an in-process caller passes them: the form text JSON
 * parsed, when short (a value nested 100,000 deep would overflow the stack of the test's own
 * cloning and reporting; form text covers those).
 */
const typedInput = (struct: Params, name: string) => formInput(struct, name).map(parsed);

function parsed(form: unknown): unknown {
  if (typeof form === 'string') {
    try {
      return form.length <= 2000 ? JSON.parse(form) : form;
    } catch {
      return form;
    }
  }
  return Object.fromEntries(Object.entries(form as Record<string, string>).map(([key, text]) => [key, parsed(text)]));
}

const structs = await parameterStructs();

describe('run-struct: the same outcome as superstruct, for every parameter struct', () => {
  it('finds the core\'s parameter structs', () => {
    expect(structs.length).toBeGreaterThan(100);
    expect(structs.map(([name]) => name)).toContain('messages.ts:GetMessagesParams');
  });

  it.each(structs)('%s: form text and typed values', (name, struct) => {
    fc.assert(fc.property(formInput(struct, name), (input) => expectSameOutcome(struct, input)), { numRuns: 40 });
    fc.assert(fc.property(typedInput(struct, name), (input) => expectSameOutcome(struct, input)), { numRuns: 40 });
    fc.assert(fc.property(fc.anything(), (input) => expectSameOutcome(struct, input)), { numRuns: 15 });
  });

  it('refuses with the very failure superstruct reports first (path, value, type, message, branch)', () => {
    for (const [, struct] of structs) {
      for (const input of [{}, { narrow: '[{"operator":"channel","operand":{}}]' }, 5, [1], { a: [1] }]) {
        const [mine, theirs] = twice(input);
        const got = runStruct(mine ?? {}, struct, { coerce: true });
        const [error] = validate(theirs ?? {}, struct, { coerce: true });
        if (!error) continue;
        expect(got).toBeInstanceOf(Refusal);
        const { failure } = got as Refusal;
        const { message: _message, explanation: _explanation, ...fields } = failure;
        expect({ path: error.path, value: error.value, type: error.type, key: error.key, refinement: error.refinement, branch: error.branch }).toEqual(fields);
      }
    }
  });
});

describe('GET /messages: each class of input, as the transport and as an in-process caller send it', () => {
  const narrows: unknown[] = [
    '[{"operator":"channel","operand":12},{"operator":"topic","operand":"topic 3"}]',
    '[{"operator":"stream","operand":"general"},{"operator":"subject","operand":"lunch"}]',
    '[{"operator":"channel","operand":"general","negated":true}]',
    '[{"operator":"-channel","operand":"general"}]',
    '[["stream","x"]]',
    '[["channel",5],["sender","member@example.com"]]',
    '[{"operator":"dm","operand":[1,2]},{"operator":"sender","operand":7}]',
    '[{"operator":"bogus","operand":"x"}]',
    '[{"operator":"channel","operand":{}}]',
    '[{"operator":"channel","operand":5.5}]',
    '[{"operator":"channel","operand":"x","negated":"yes"}]',
    '[{"operator":"channel"}]',
    '[{"operator":"channel","operand":"x","extra":1}]',
    '[["channel"]]',
    '[null]',
    '{"operator":"channel"}',
    '[{"operator":"channel",',
    `[${'['.repeat(2000)}${']'.repeat(2000)}]`,
    `[${Array.from({ length: 101 }, () => '["is","starred"]').join(',')}]`,
    `[{"operator":"search","operand":"${'x'.repeat(100_001)}"}]`,
    '5',
    'null',
  ];
  const inputs: unknown[] = [
    undefined,
    {},
    { anchor: 'newest', num_before: '50', num_after: '0' },
    { anchor: 'newest', num_before: '50' },
    { anchor: 5, num_before: '50', num_after: '0' },
    { anchor: 'newest', num_before: '-1', num_after: '0' },
    { anchor: 'newest', num_before: 'fifty', num_after: '0' },
    { anchor: 'newest', num_before: '"50"', num_after: '0' },
    { anchor: 'newest', num_before: '1.5', num_after: '0' },
    { anchor: 'newest', num_before: '50', num_after: '0', include_anchor: 'yes', apply_markdown: 'false' },
    { anchor: 'newest', num_before: '50', num_after: '0', client_gravatar: 'false', allow_empty_topic_name: 'true' },
    { message_ids: '[1,2,3]', narrow: '[]' },
    { message_ids: `[${'1,'.repeat(6000)}1]` },
    // Not an object, and superstruct's message cannot print it: both throw the same TypeError.
    [{ toString: false }],
    ...narrows.map((narrow) => ({ anchor: 'newest', num_before: '50', num_after: '0', narrow })),
  ];

  it.each(inputs.map((input) => [JSON.stringify(input)?.slice(0, 120), input]))('%s', (_shown, input) => {
    const messages = structs.find(([name]) => name === 'messages.ts:GetMessagesParams')![1];
    expectSameOutcome(messages, input);
    expectSameOutcome(messages, parsed(input ?? {}));
  });

  it('answers as before, word for word', () => {
    const messages = structs.find(([name]) => name === 'messages.ts:GetMessagesParams')![1];
    const base = { anchor: 'newest', num_before: '50', num_after: '0' };
    expect(validateInput(messages, { ...base, narrow: '[["stream","x"]]' })._unsafeUnwrap()).toMatchObject({ narrow: [['stream', 'x']], num_before: 50 });
    expect(validateInput(messages, { ...base, narrow: '[{"operator":"channel","operand":12}]' })._unsafeUnwrap()).toStrictEqual({
      ...base,
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 12 }],
      client_gravatar: true,
      apply_markdown: true,
      allow_empty_topic_name: false,
    });
    expect(validateInput(messages, { ...base, narrow: '[{"operator":"channel",' })._unsafeUnwrapErr().msg).toBe('narrow is not valid JSON');
    expect(validateInput(messages, { ...base, narrow: '[{"operator":"channel","operand":{}}]' })._unsafeUnwrapErr().msg).toBe('Invalid narrow[0]');
    expect(validateInput(messages, { ...base, narrow: '{"operator":"channel"}' })._unsafeUnwrapErr().msg).toBe('narrow is not a list');
    expect(validateInput(messages, { ...base, num_before: '-1' })._unsafeUnwrapErr().msg).toBe('num_before is too small');
    expect(validateInput(messages, { ...base, include_anchor: 'yes' })._unsafeUnwrapErr().msg).toBe('include_anchor is not valid JSON');
  });
});
