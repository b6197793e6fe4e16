import { randomUUID } from 'node:crypto';

/**
 * An incoming `X-Request-Id` is kept (a reverse proxy's, so its log and ours share the ID) when
 * it is short and of characters that cannot break a log line or a header; else one is made.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}
