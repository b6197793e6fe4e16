/**
 * Global setup of the `postgres` test project: one migrated template database for the run,
 * which every world clones (tests/helpers/storage.ts); the teardown drops every database of the
 * run, the template included.
 */
import { randomBytes } from 'node:crypto';

export default async function setup(): Promise<() => Promise<void>> {
  process.env.TEAMCHAT_TEST_RUN ??= randomBytes(4).toString('hex');
  // Imported after the run ID is set: the helper reads it when loaded.
  const { createTemplate, dropDatabases, TEST_DATABASE_PREFIX, withAdmin } = await import('./storage.js');
  const template = `${TEST_DATABASE_PREFIX}tpl`;
  await createTemplate(template);
  process.env.TEAMCHAT_TEST_TEMPLATE = template;
  return async () => {
    const rows = await withAdmin((sql) => sql`SELECT datname FROM pg_database WHERE starts_with(datname, ${TEST_DATABASE_PREFIX})`);
    await dropDatabases(rows.map((row) => row.datname as string));
  };
}
