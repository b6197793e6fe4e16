/**
 * The database's size for the metrics gauge: the SQLite file with its WAL, or PostgreSQL's
 * `pg_database_size` over a connection of its own, opened at the first scrape.
 */
import { statSync } from 'node:fs';
import postgres from 'postgres';
import { databasePath } from './data-dir.js';

export interface DatabaseSize {
  bytes(): Promise<number>;
  close(): Promise<void>;
}

export function sqliteDatabaseSize(dir: string): DatabaseSize {
  const file = databasePath(dir);
  const size = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  return { bytes: async () => size(file) + size(`${file}-wal`), close: async () => undefined };
}

export function postgresDatabaseSize(url: string): DatabaseSize {
  let sql: postgres.Sql | undefined;
  return {
    async bytes() {
      // One connection, closed when idle: a scrape every few seconds keeps it, a stopped scraper does not.
      sql ??= postgres(url, { max: 1, idle_timeout: 60, onnotice: () => undefined });
      const [row] = await sql`SELECT pg_database_size(current_database())::text AS size`;
      return Number(row!.size);
    },
    async close() {
      await sql?.end({ timeout: 5 });
    },
  };
}
