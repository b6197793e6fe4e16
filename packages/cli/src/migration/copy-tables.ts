/**
 * The copy behind `teamchat migrate`: every table of a SQLite file into the same tables of a
 * freshly migrated PostgreSQL database, in one transaction, keeping IDs.
 */
import type Database from 'better-sqlite3';
import type { Sql } from 'postgres';
import { CliError } from '../data-dir.js';

export interface Progress {
  start(total: number): void;
  advance(rows: number): void;
  stop(): void;
}

export interface CopyReport {
  rows: number;
  /** Each table's row count in the source and in the target after the copy. */
  counts: { table: string; source: number; target: number }[];
}

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;

/**
 * Tables not copied: SQLite's own, the FTS5 index (contentless: rebuilt from the messages), and
 * the channel and user state tokens (cache keys, which the target already holds).
 */
const SKIPPED = /^(sqlite_|message_fts)|^(channel_state|user_state)$/;

export async function copyTables(source: Database.Database, sql: Sql, progress: Progress): Promise<CopyReport> {
  const tables = copyOrder(source);
  const [{ realms }] = (await sql`SELECT count(*)::int AS realms FROM realm`) as unknown as [{ realms: number }];
  if (realms > 0) throw new CliError('the target database already holds data: migrate into an empty database');
  const sourceCount = (table: string) => (source.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  const totals = new Map(tables.map((table) => [table, sourceCount(table)]));
  const total = [...totals.values()].reduce((a, b) => a + b, 0);
  const sequences = autoincrementCounters(source);
  progress.start(total);
  try {
    await sql.begin(async (tx) => {
      for (const table of tables) {
        const targetColumns = new Set(
          (await tx`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'NEVER'`).map(
            (row) => row.column_name as string,
          ),
        );
        const columns = (source.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[])
          .map((c) => c.name)
          .filter((name) => targetColumns.has(name));
        const hasId = columns.includes('id');
        const select = source.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"${hasId ? ' ORDER BY id' : ''}`);
        let batch: Record<string, unknown>[] = [];
        const flush = async () => {
          if (batch.length === 0) return;
          await tx`INSERT INTO ${tx(table)} ${tx(batch as never, columns)}`;
          progress.advance(batch.length);
          batch = [];
        };
        for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
          batch.push(row);
          if (batch.length >= BATCH) await flush();
        }
        await flush();
        if (hasId) {
          const [{ seq }] = (await tx`SELECT pg_get_serial_sequence(${`"${table}"`}, 'id') AS seq`) as unknown as [{ seq: string | null }];
          const [{ max }] = (await tx`SELECT coalesce(max(id), 0)::bigint AS max FROM ${tx(table)}`) as unknown as [{ max: string }];
          const next = Math.max(Number(max), sequences.get(table) ?? 0);
          if (seq && next > 0) await tx`SELECT setval(${seq}, ${next})`;
        }
      }
      // The full-text index, rebuilt from the messages (SQLite's is contentless).
      await tx`INSERT INTO message_fts (rowid, content, topic) SELECT id, content, topic FROM message`;
    });
  } finally {
    progress.stop();
  }
  const counts: CopyReport['counts'] = [];
  for (const table of tables) {
    const [{ n }] = (await sql`SELECT count(*)::bigint AS n FROM ${sql(table)}`) as unknown as [{ n: string }];
    counts.push({ table, source: totals.get(table)!, target: Number(n) });
  }
  const [{ n: indexed }] = (await sql`SELECT count(*)::bigint AS n FROM message_fts`) as unknown as [{ n: string }];
  counts.push({ table: 'message_fts (rebuilt)', source: totals.get('message') ?? 0, target: Number(indexed) });
  return { rows: total, counts };
}

/** The copied tables, each after the tables its foreign keys name (so the keys hold row by row). */
function copyOrder(source: Database.Database): string[] {
  const names = (source.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[])
    .map((row) => row.name)
    .filter((name) => !SKIPPED.test(name));
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    const references = source.prepare(`SELECT "table" FROM pragma_foreign_key_list(?)`).all(table) as { table: string }[];
    for (const { table: parent } of references) if (parent !== table && names.includes(parent)) visit(parent);
    ordered.push(table);
  };
  for (const name of names) visit(name);
  return ordered;
}

/** SQLite's AUTOINCREMENT counters: an ID once used is never handed out again, even if its row is gone. */
function autoincrementCounters(source: Database.Database): Map<string, number> {
  const exists = source.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`).get();
  if (!exists) return new Map();
  const rows = source.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[];
  return new Map(rows.map((row) => [row.name, row.seq]));
}
