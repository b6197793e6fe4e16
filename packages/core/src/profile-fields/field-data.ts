/**
 * `field_data` of a custom profile field definition (FACTS.md 7.2): dropdown choices for
 * SELECT, the provider for EXTERNAL_ACCOUNT. Other types keep none.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import { DEFAULT_EXTERNAL_ACCOUNTS, EXTERNAL_ACCOUNT, SELECT } from './types.js';

type FieldData = Record<string, unknown>;

/** The field data to store for a field of `type`, checked; null when the type uses none. */
export function checkFieldData(type: number, data: FieldData | undefined): Result<FieldData | null, ApiError> {
  if (type === SELECT) return checkChoices(data ?? {});
  if (type === EXTERNAL_ACCOUNT) return checkExternalAccount(data ?? {});
  return ok(null);
}

function checkChoices(data: FieldData): Result<FieldData, ApiError> {
  const entries = Object.entries(data);
  if (entries.length === 0) return err(badRequest('Field must have at least one choice.'));
  const texts = new Set<string>();
  for (const [key, choice] of entries) {
    if (key.trim() === '') return err(badRequest("'value' cannot be blank."));
    const name = `field_data["${key}"]`;
    if (typeof choice !== 'object' || choice === null || Array.isArray(choice)) return err(badRequest(`${name} is not a dict`));
    for (const inner of ['text', 'order']) {
      const value = (choice as FieldData)[inner];
      if (value === undefined) return err(badRequest(`${inner} key is missing from ${name}`));
      if (typeof value !== 'string') return err(badRequest(`${name}["${inner}"] is not a string`));
      if (value.trim() === '') return err(badRequest(`${name}["${inner}"] cannot be blank`));
    }
    const extra = Object.keys(choice).find((k) => k !== 'text' && k !== 'order');
    if (extra !== undefined) return err(badRequest(`Unexpected arguments: ${extra}`));
    const text = (choice as { text: string }).text;
    if (texts.has(text)) return err(badRequest('Field must not have duplicate choices.'));
    texts.add(text);
  }
  return ok(data);
}

function checkExternalAccount(data: FieldData): Result<FieldData, ApiError> {
  const { subtype, url_pattern: urlPattern } = data;
  if (subtype === undefined) return err(badRequest('subtype key is missing from field_data'));
  if (typeof subtype !== 'string') return err(badRequest('field_data["subtype"] is not a string'));
  if (subtype !== 'custom' && !(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) return err(badRequest('Invalid external account type'));
  const extra = Object.keys(data).find((k) => k !== 'subtype' && k !== 'url_pattern');
  if (extra !== undefined) return err(badRequest(`Unexpected arguments: ${extra}`));
  if (subtype !== 'custom') return ok({ subtype });
  if (urlPattern === undefined) return err(badRequest('Custom external account must define URL pattern'));
  if (typeof urlPattern !== 'string') return err(badRequest('field_data["url_pattern"] is not a string'));
  if (urlPattern.split('%(username)s').length !== 2) return err(badRequest("URL pattern must contain '%(username)s'."));
  if (!isWebUrl(urlPattern.replace('%(username)s', 'username'))) return err(badRequest('field_data["url_pattern"] is not a URL'));
  return ok({ subtype, url_pattern: urlPattern });
}

/** An absolute http(s) or ftp(s) URL with a host, as the reference's URLValidator wants. */
export function isWebUrl(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return ['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}
