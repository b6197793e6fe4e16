/**
 * Where the server keeps its data: the SQLite file of the data directory by default, or a
 * PostgreSQL database named by `--database` or TEAMCHAT_DATABASE_URL (uploads stay in the data
 * directory either way).
 */
import type { Logger, Storage } from '@teamchat/core';
import { createPostgresStorage, type PostgresEventTransport } from '@teamchat/postgres';

/**
 * The PostgreSQL storage at `url`. The server's operations never nest storage calls (the test
 * suite runs them with the check on), so the check's promise hook is off, as for SQLite.
 */
export function postgresStorage(url: string, logger?: Logger, events?: PostgresEventTransport): Storage {
  return createPostgresStorage({ url, detectNestedCalls: false, logger, events });
}

/** A URL without its password, for messages. */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
