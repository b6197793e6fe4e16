/**
 * Scratch PostgreSQL databases for the cluster tests: one per test, dropped afterwards. The
 * tests run only when TEAMCHAT_TEST_DATABASE_URL names a server (.ci/run sets it).
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export const DATABASE_URL = process.env.TEAMCHAT_TEST_DATABASE_URL;

/** Says once per file why its tests are skipped. */
export function announceSkip(file: string): void {
  if (!DATABASE_URL) console.log(`${file}: TEAMCHAT_TEST_DATABASE_URL is not set, the PostgreSQL cluster tests are skipped`);
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new empty database on the test server; `drop` ends its sessions and removes it. */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const name = `teamchat_cluster_${randomBytes(6).toString('hex')}`;
  const admin = postgres(DATABASE_URL!, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
