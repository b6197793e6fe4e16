import { cpSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { createPostgresStorage } from '@teamchat/postgres';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError, databasePath, uploadsPath } from '../data-dir.js';
import { displayUrl } from '../database.js';
import { copyTables, type CopyReport } from '../migration/copy-tables.js';
import { progressReporter } from '../migration/progress.js';
import { parsePostgresUrl } from '../options.js';

/** `sqlite:DIR`: the data directory whose SQLite file is copied. */
function parseSqliteSource(value: string, source: string): string {
  if (!value.startsWith('sqlite:')) throw new CliError(`${source} takes sqlite:DIR (a data directory), not '${value}'`);
  return value.slice('sqlite:'.length);
}

const options = {
  from: option({ value: 'sqlite:DIR', description: 'the data directory to copy from', required: true, parse: parseSqliteSource }),
  to: option({ value: 'URL', description: 'an empty PostgreSQL database (postgres://…)', required: true, parse: parsePostgresUrl }),
  data: option({ value: 'NEW_DIR', description: 'copy the uploads to this data directory', defaultText: 'uploads stay in DIR' }),
} satisfies OptionTable;

/**
 * Copies a whole installation from a data directory's SQLite file into an empty PostgreSQL
 * database: every row with its ID, each table's ID sequence set past the largest ID (and past
 * SQLite's AUTOINCREMENT counters), the full-text index rebuilt from the messages. Uploads stay
 * where they are (`serve --data DIR --database …` keeps using DIR/uploads), or are copied to
 * `--data NEW_DIR`. Ends with a per-table count check that fails on any difference.
 */
export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: "copy a data directory's SQLite database into an empty PostgreSQL database",
  description: `Copies a whole installation from a data directory's SQLite file into an empty PostgreSQL database: every row with its ID, then a per-table count check that fails on any difference. Uploads stay where they are (serve with --data DIR --database URL), or are copied to --data.`,
  options,
  run: migrate,
});

async function migrate(values: OptionValues<typeof options>): Promise<void> {
  const dir = values.from;
  if (!existsSync(databasePath(dir))) throw new CliError(`${resolve(dir)} holds no teamchat database (${databasePath(dir)})`);
  const url = values.to;

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
