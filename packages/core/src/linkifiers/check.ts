/**
 * The rules a linkifier must satisfy before it is saved (FACTS.md 10, API.md 2.7 and 4.17).
 * Failures have the reference's ValidationFailureError shape: BAD_REQUEST whose `msg` is the
 * first message and whose `errors` maps each field (or `__all__` for rules across fields) to
 * its messages, fields first and then the rules across them, as Django's full_clean orders them.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, validationFailure } from '../errors.js';
import { compilePattern, fullMatchGroups } from '../markdown/linkifier-match.js';
import { applyReverseTemplate, parseReverseTemplate } from './reverse-template.js';
import { templateVariables } from './url-template-syntax.js';

/** A linkifier's fields as requested, already stripped and with "" resets turned into null. */
export interface LinkifierFields {
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: readonly string[];
}

const BLANK = 'This field cannot be blank.';
const INVALID_TEMPLATE = 'Invalid URL template.';
const DUPLICATE = 'Realm filter with this Realm and Pattern already exists.';

/** Python's repr of a group name, as the reference's messages quote it. */
const quoted = (name: string) => `'${name}'`;
const smallest = (names: Iterable<string>) => [...names].sort()[0];

/** Checks `fields`; `takenPatterns` are the patterns of the realm's other linkifiers. */
export function checkLinkifier(fields: LinkifierFields, takenPatterns: readonly string[]): Result<void, ApiError> {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);

  const compiled = fields.pattern === '' ? null : compilePattern(fields.pattern);
  if (compiled === null) fail('pattern', BLANK);
  else if (!compiled.ok) fail('pattern', `Bad regular expression: ${compiled.error}`);
  const variables = fields.urlTemplate === '' ? null : templateVariables(fields.urlTemplate);
  if (fields.urlTemplate === '') fail('url_template', BLANK);
  else if (variables === null) fail('url_template', INVALID_TEMPLATE);
  if (fields.alternativeUrlTemplates.some((t) => templateVariables(t) === null)) fail('alternative_url_templates', INVALID_TEMPLATE);

  if (compiled?.ok && variables) {
    const groups = new Set(compiled.groupNames);
    const notGroups = variables.filter((v) => !groups.has(v));
    const unused = compiled.groupNames.filter((g) => !variables.includes(g));
    if (notGroups.length > 0) fail('__all__', `Group ${quoted(smallest(notGroups)!)} in URL template is not present in linkifier pattern.`);
    else if (unused.length > 0) fail('__all__', `Group ${quoted(smallest(unused)!)} in linkifier pattern is not present in URL template.`);
    checkExamples(fields, compiled.groupNames, fail);
  }
  if (compiled?.ok && takenPatterns.includes(fields.pattern)) fail('__all__', DUPLICATE);

  return Object.keys(errors).length === 0 ? ok(undefined) : err(validationFailure(errors));
}

// example_input must match the whole pattern; reverse_template, applied to the groups taken from
// example_input, must give example_input back (the texts are ours: the reference's are not known).
function checkExamples(fields: LinkifierFields, groupNames: readonly string[], fail: (field: string, message: string) => void): void {
  const groups = fields.exampleInput === null ? null : fullMatchGroups(fields.pattern, fields.exampleInput);
  if (fields.exampleInput !== null && groups === null) fail('example_input', 'Example input does not match the linkifier pattern.');
  if (fields.reverseTemplate === null) return;
  if (fields.exampleInput === null) {
    fail('reverse_template', 'A reverse template requires an example input.');
    return;
  }
  const parts = parseReverseTemplate(fields.reverseTemplate);
  if (parts === null) {
    fail('reverse_template', 'Invalid reverse template.');
    return;
  }
  const missing = parts.flatMap((p) => ('variable' in p && !groupNames.includes(p.variable) ? [p.variable] : []));
  if (missing.length > 0) {
    fail('reverse_template', `Group ${quoted(smallest(missing)!)} in reverse template is not present in linkifier pattern.`);
    return;
  }
  if (groups === null) return;
  const reversed = applyReverseTemplate(parts, groups);
  if (reversed !== fields.exampleInput) {
    fail('reverse_template', `Reverse template gives '${reversed}' for the example input, not the example input itself.`);
  }
}
