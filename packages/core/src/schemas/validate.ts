import { err, ok, type Result } from 'neverthrow';
import type { Failure, Struct } from 'superstruct';
import { type ApiError, badRequest, missingArgument } from '../errors.js';
import { Refusal, runStruct } from './run-struct.js';
import { INVALID_JSON, OversizedJson } from './wire.js';

/** The reference's display name for a nested parameter: `to[0]`, `drafts[0]["content"]`. */
export function varName(path: readonly (string | number)[]): string {
  const [head, ...rest] = path;
  return String(head) + rest.map((p) => `[${JSON.stringify(p)}]`).join('');
}

/** Messages for superstruct's own structs, keyed by failure type. */
const BUILTIN_MESSAGES: Record<string, string> = {
  array: '{var} is not a list',
  object: '{var} is not a dict',
  type: '{var} is not a dict',
  record: '{var} is not a dict',
  string: '{var} is not a string',
  integer: '{var} is not an integer',
  number: '{var} is not a number',
  boolean: '{var} is not a boolean',
  enums: 'Invalid {var}',
  literal: 'Invalid {var}',
  union: 'Invalid {var}',
};

/**
 * The API error for the first failure only: its cost does not grow with the input (the failure
 * list of a million-item list would be a million failures). The failure's message is its own,
 * without the "At path: …" prefix a StructError puts before it.
 */
export function toApiError(failure: Failure): ApiError {
  const name = varName(failure.path);
  if (failure.value === undefined && failure.type !== 'never') {
    return failure.path.length === 1 ? missingArgument(name) : badRequest(`${name} field is missing`);
  }
  if (failure.type === 'never') {
    const key = failure.path[failure.path.length - 1];
    return badRequest(`Argument "${String(key)}" at ${name} is unexpected`);
  }
  if (failure.value === INVALID_JSON) return badRequest(`${name} is not valid JSON`);
  if (failure.value instanceof OversizedJson) return badRequest(`${name} is too long (limit: ${failure.value.limit} characters)`);
  const template = failure.message.includes('{var}')
    ? failure.message
    : (BUILTIN_MESSAGES[failure.type] ?? 'Invalid {var}');
  return badRequest(template.replaceAll('{var}', name));
}

/**
 * Validates (and coerces) an operation's input. The first failure becomes the reference
 * server's error: REQUEST_VARIABLE_MISSING for a missing top-level parameter, otherwise
 * BAD_REQUEST with a message naming the parameter.
 */
export function validateInput<T, S>(struct: Struct<T, S>, input: unknown): Result<T, ApiError> {
  const value = runStruct(input ?? {}, struct, { coerce: true });
  return value instanceof Refusal ? err(toApiError(value.failure)) : ok(value as T);
}
