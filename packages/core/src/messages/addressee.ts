/**
 * The `to` parameter of POST /messages as the reference reads it (extract_stream_indicator,
 * extract_private_recipients): pure parsing, before any lookup.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';

/**
 * Text that may be JSON: it starts (after whitespace) as a JSON array, object, string or number
 * does, or is a JSON literal. Anything else would make JSON.parse throw, and a thrown error
 * costs more than the rest of the parse: most `to` values are plain names and emails.
 */
const MAYBE_JSON = /^\s*(?:[[{"\-\d]|(?:true|false|null)\s*$)/;

/** `raw` parsed as JSON, or `undefined` when it is not JSON. */
function parseJson(raw: string): { value: unknown } | undefined {
  if (!MAYBE_JSON.test(raw)) return undefined;
  try {
    return { value: JSON.parse(raw) };
  } catch {
    return undefined;
  }
}

/** A channel by ID or name: an ID, a name (raw or JSON-quoted), or a JSON list of exactly one. */
export function channelIndicator(raw: string): Result<number | string, ApiError> {
  const parsed = parseJson(raw);
  // Not JSON: a plain channel name.
  if (!parsed) return ok(raw);
  let data = parsed.value;
  if (Array.isArray(data)) {
    if (data.length !== 1) return err(badRequest('Expected exactly one channel'));
    data = data[0];
  }
  if (typeof data === 'string') return ok(data);
  if (typeof data === 'number' && Number.isSafeInteger(data)) return ok(data);
  return err(badRequest('Invalid data type for channel'));
}

/**
 * Direct-message recipients: a JSON list of user IDs or of emails, or a comma-separated string
 * of emails (raw or JSON-quoted). Emails are stripped and blanks dropped; duplicates removed.
 */
export function directRecipients(raw: string): Result<{ ids: number[] } | { emails: string[] }, ApiError> {
  let data = (parseJson(raw) ?? { value: raw }).value;
  if (typeof data === 'number') data = [data];
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) return err(badRequest('Invalid data type for recipients'));
  if (data.length === 0) return ok({ emails: [] });
  if (typeof data[0] === 'string') {
    if (!data.every((entry) => typeof entry === 'string')) return err(mixed());
    return ok({ emails: [...new Set((data as string[]).map((email) => email.trim()).filter(Boolean))] });
  }
  if (!Number.isSafeInteger(data[0])) return err(badRequest('Invalid data type for recipients'));
  if (!data.every((entry) => Number.isSafeInteger(entry))) return err(mixed());
  return ok({ ids: [...new Set(data as number[])] });
}

const mixed = () => badRequest('Recipient lists may contain emails or user IDs, but not both.');
