/**
 * Input validation with the reference's texts (FACTS 2.2, 2.3): form text is JSON for typed
 * parameters and raw for strings; in-process callers may pass real values.
 */
import { validateInput, varName } from '@teamchat/core/internal';
import { describe, expect, it } from 'vitest';
import {
  CreateUserParams,
  DeactivateUserParams,
  GetUsersParams,
  UpdateUserParams,
} from '../../packages/core/src/schemas/users.js';
import { IntRange, json, object, OneOf, optional, PathInt, Text } from '../../packages/core/src/schemas/wire.js';
import { expectBadRequest, expectError } from './fixtures.js';

describe('varName', () => {
  it('builds the reference’s nested names', () => {
    expect(varName(['user_ids'])).toBe('user_ids');
    expect(varName(['to', 0])).toBe('to[0]');
    expect(varName(['drafts', 0, 'content'])).toBe('drafts[0]["content"]');
    expect(varName(['profile_data', 12, 'value', 3])).toBe('profile_data[12]["value"][3]');
  });
});

describe('validateInput: defaults and coercion', () => {
  it('fills defaults for absent input', () => {
    const expected = { client_gravatar: true, include_custom_profile_fields: false };
    expect(validateInput(GetUsersParams, undefined)._unsafeUnwrap()).toEqual(expected);
    expect(validateInput(GetUsersParams, null)._unsafeUnwrap()).toEqual(expected);
    expect(validateInput(GetUsersParams, {})._unsafeUnwrap()).toEqual(expected);
  });

  it('decodes JSON form text into typed values', () => {
    const value = validateInput(GetUsersParams, { client_gravatar: 'false', include_custom_profile_fields: 'true', user_ids: '[3, 1]' });
    expect(value._unsafeUnwrap()).toEqual({ client_gravatar: false, include_custom_profile_fields: true, user_ids: [3, 1] });
  });

  it('accepts typed values from in-process callers', () => {
    const value = validateInput(GetUsersParams, { client_gravatar: false, user_ids: [2] });
    expect(value._unsafeUnwrap()).toEqual({ client_gravatar: false, include_custom_profile_fields: false, user_ids: [2] });
  });

  it('keeps string parameters as raw text, never JSON-decoding them', () => {
    const value = validateInput(CreateUserParams, { email: '"a@b.c"', password: '123456', full_name: 'null' });
    expect(value._unsafeUnwrap()).toEqual({ email: '"a@b.c"', password: '123456', full_name: 'null' });
  });

  it('reads integer path parameters from text', () => {
    expect(validateInput(UpdateUserParams, { user_id: '42' })._unsafeUnwrap()).toMatchObject({ user_id: 42 });
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '4x' }), 'user_id is not an integer');
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '-1' }), 'user_id is not an integer');
    expect(validateInput(object({ id: PathInt }), { id: 7 })._unsafeUnwrap()).toEqual({ id: 7 });
  });

  it('passes unknown parameters through (the adapter reports them as ignored)', () => {
    expect(validateInput(GetUsersParams, { surprise: '1' }).isOk()).toBe(true);
  });
});

describe('validateInput: errors', () => {
  it('reports a missing top-level parameter as REQUEST_VARIABLE_MISSING with var_name', () => {
    expectError(validateInput(CreateUserParams, { email: 'a@b.c', full_name: 'Ab' }), 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument", 400, {
      var_name: 'password',
    });
  });

  it('reports invalid JSON, whatever the expected type', () => {
    expectBadRequest(validateInput(GetUsersParams, { client_gravatar: 'True' }), 'client_gravatar is not valid JSON');
    expectBadRequest(validateInput(GetUsersParams, { client_gravatar: 'yes' }), 'client_gravatar is not valid JSON');
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '1', role: 'abc' }), 'role is not valid JSON');
    expectBadRequest(validateInput(GetUsersParams, { user_ids: '[1,2' }), 'user_ids is not valid JSON');
    expectBadRequest(validateInput(DeactivateUserParams, { user_id: '1', actions: "{'a': 1}" }), 'actions is not valid JSON');
  });

  it('reports valid JSON of the wrong type', () => {
    expectBadRequest(validateInput(GetUsersParams, { client_gravatar: '1' }), 'client_gravatar is not a boolean');
    expectBadRequest(validateInput(GetUsersParams, { client_gravatar: '"true"' }), 'client_gravatar is not a boolean');
    expectBadRequest(validateInput(GetUsersParams, { client_gravatar: 'null' }), 'client_gravatar is not a boolean');
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '1', role: '"42"' }), 'role is not an integer');
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '1', role: '4.2' }), 'role is not an integer');
    expectBadRequest(validateInput(GetUsersParams, { user_ids: '{"a": 1}' }), 'user_ids is not a list');
    expectBadRequest(validateInput(DeactivateUserParams, { user_id: '1', actions: '"x"' }), 'actions is not a dict');
  });

  it('names the element of a list or the key of an object that is wrong', () => {
    expectBadRequest(validateInput(GetUsersParams, { user_ids: '[1, 2, "3"]' }), 'user_ids[2] is not an integer');
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '1', profile_data: '[{"id": 1, "value": null}, {"id": true, "value": null}]' }), 'profile_data[1]["id"] is not an integer');
    expectBadRequest(validateInput(DeactivateUserParams, { user_id: '1', actions: '{"delete_profile": 1}' }), 'actions["delete_profile"] is not a boolean');
  });

  it('reports unexpected and missing keys of strict objects', () => {
    expectBadRequest(validateInput(DeactivateUserParams, { user_id: '1', actions: '{"foo": true}' }), 'Argument "foo" at actions["foo"] is unexpected');
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '1', profile_data: '[{"id": 1}]' }), 'profile_data[0]["value"] field is missing');
  });

  it('treats JSON nested deeper than 1024 levels as not valid JSON, as orjson does', () => {
    const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '1', role: deep(1025) }), 'role is not valid JSON');
    expectBadRequest(validateInput(UpdateUserParams, { user_id: '1', role: deep(1024) }), 'role is not an integer');
    expectBadRequest(validateInput(DeactivateUserParams, { user_id: '1', actions: deep(100_000) }), 'actions is not valid JSON');
    expectBadRequest(validateInput(GetUsersParams, { user_ids: `[${'{"a":'.repeat(1100)}1${'}'.repeat(1100)}]` }), 'user_ids is not valid JSON');
    // Brackets inside strings, escaped quotes included, do not count.
    const value = `${'['.repeat(2000)}\\"${'{'.repeat(2000)}`;
    const parsed = validateInput(UpdateUserParams, { user_id: '1', profile_data: JSON.stringify([{ id: 1, value }]) });
    expect(parsed._unsafeUnwrap().profile_data).toEqual([{ id: 1, value }]);
  });

  it('reports only the first failure', () => {
    expectBadRequest(validateInput(GetUsersParams, { client_gravatar: 'x', user_ids: 'y' }), 'client_gravatar is not valid JSON');
  });

  it('uses the range, choice and length texts', () => {
    const Params = object({
      n: optional(json(IntRange(1, 10))),
      op: optional(OneOf(['start', 'stop'])),
      text: optional(Text({ max: 5, nonBlank: true })),
    });
    expectBadRequest(validateInput(Params, { n: '0' }), 'n is too small');
    expectBadRequest(validateInput(Params, { n: '11' }), 'n is too large');
    expect(validateInput(Params, { n: '10' })._unsafeUnwrap()).toEqual({ n: 10 });
    expectBadRequest(validateInput(Params, { op: 'go' }), 'Invalid op');
    expectBadRequest(validateInput(Params, { text: '   ' }), 'text cannot be blank');
    expectBadRequest(validateInput(Params, { text: 'toolong' }), 'text is too long (limit: 5 characters)');
    expect(validateInput(Params, { text: '👍👍👍👍👍' }).isOk()).toBe(true);
  });
});
