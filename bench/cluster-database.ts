/**
 * Scratch PostgreSQL databases for the cluster group: `tc_bench_<random>`, created on the server
 * of BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/postgres) and dropped by the
 * group when it ends, or by `dropAllDatabases` (run.ts's clean-up, on failure and on signals).
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEAMCHAT_TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

const undropped = new Set<ScratchDatabase>();

/** A new empty database; `drop` ends its sessions (the servers', if still connected) and removes it. */
export async function scratchDatabase(label: string): Promise<ScratchDatabase> {
  const name = `tc_bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end();
    throw new Error(`cannot create a database on ${SERVER_URL} (set BENCH_DATABASE_URL): ${(error as Error).message}`);
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const database: ScratchDatabase = {
    url: url.toString(),
    async drop() {
      if (!undropped.delete(database)) return;
      try {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
  undropped.add(database);
  return database;
}

/** Drops every database created here and not dropped yet. */
export async function dropAllDatabases(): Promise<void> {
  await Promise.all([...undropped].map((database) => database.drop()));
}
