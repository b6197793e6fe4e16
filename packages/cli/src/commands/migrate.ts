import { cpSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteStorage } from '@teamchat/core';
import { createPostgresStorage } from '@teamchat/postgres';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { CliError, databasePath, uploadsPath } from '../data-dir.js';
import { databaseUrl, displayUrl } from '../database.js';
import { copyTables, type CopyReport } from '../migration/copy-tables.js';
import { progressReporter } from '../migration/progress.js';

export const MIGRATE_USAGE = 'teamchat migrate --from sqlite:DIR --to postgres://… [--data NEW_DIR]';

/**
 * Copies a whole installation from a data directory's SQLite file into an empty PostgreSQL
 * database: every row with its ID, each table's ID sequence set past the largest ID (and past
 * SQLite's AUTOINCREMENT counters), the full-text index rebuilt from the messages. Uploads stay
 * where they are (`serve --data DIR --database …` keeps using DIR/uploads), or are copied to
 * `--data NEW_DIR`. Ends with a per-table count check that fails on any difference.
 */
export async function migrateCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { from: { type: 'string' }, to: { type: 'string' }, data: { type: 'string' } },
  });
  const from = values.from;
  if (!from?.startsWith('sqlite:')) throw new CliError(`--from takes sqlite:DIR (a data directory)\n  ${MIGRATE_USAGE}`);
  const dir = from.slice('sqlite:'.length);
  if (!existsSync(databasePath(dir))) throw new CliError(`${resolve(dir)} holds no teamchat database (${databasePath(dir)})`);
  if (values.to === undefined) throw new CliError(`--to is required\n  ${MIGRATE_USAGE}`);
  const url = databaseUrl(values.to)!;

  // Both schemas brought to this version first: the SQLite file by its driver, PostgreSQL by ours.
  await createSqliteStorage({ filename: databasePath(dir) }).close();
  const target = createPostgresStorage({ url, readConnections: 1 });
  try {
    await target.read(async () => undefined);
  } finally {
    await target.close();
  }

  const source = new Database(databasePath(dir), { readonly: true, fileMustExist: true });
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  let report: CopyReport;
  try {
    report = await copyTables(source, sql, progressReporter(process.stderr));
  } finally {
    source.close();
    await sql.end({ timeout: 5 });
  }
  for (const { table, source: expected, target: got } of report.counts) {
    process.stdout.write(`${table.padEnd(28)} ${String(expected).padStart(9)} ${got === expected ? 'ok' : `MISMATCH: ${got} in PostgreSQL`}\n`);
  }
  const mismatched = report.counts.filter((count) => count.source !== count.target);
  if (mismatched.length > 0) {
    throw new CliError(`count check failed for ${mismatched.map((count) => count.table).join(', ')}: the PostgreSQL database is incomplete`);
  }
  process.stdout.write(`Copied ${report.rows} rows into ${displayUrl(url)}; every table's count matches.\n`);
  if (values.data !== undefined && resolve(values.data) !== resolve(dir)) {
    if (existsSync(uploadsPath(dir))) cpSync(uploadsPath(dir), uploadsPath(values.data), { recursive: true, errorOnExist: false });
    process.stdout.write(`Uploads copied to ${uploadsPath(values.data)}. Serve with: teamchat serve --data ${values.data} --database <url>\n`);
  } else {
    process.stdout.write(`Uploads stay in ${uploadsPath(dir)}. Serve with: teamchat serve --data ${dir} --database <url>\n`);
  }
}
