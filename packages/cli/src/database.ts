/**
 * Where the server keeps its data: the SQLite file of the data directory by default, or a
 * PostgreSQL database named by `--database` or TEAMCHAT_DATABASE_URL (uploads stay in the data
 * directory either way).
 */
import type { Logger, Storage } from '@teamchat/core';
import { createPostgresStorage, type PostgresEventTransport } from '@teamchat/postgres';
import { CliError } from './data-dir.js';

/** The PostgreSQL URL to use, from the flag or the environment; undefined means the data directory's SQLite file. */
export function databaseUrl(flag: string | undefined): string | undefined {
  const value = flag ?? (process.env.TEAMCHAT_DATABASE_URL || undefined);
  if (value === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new CliError(`--database takes a postgres:// URL, not '${value}' (without it the data directory's SQLite file is used)`);
  }
  return value;
}

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
