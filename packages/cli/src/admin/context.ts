/**
 * The store a management command works on, as `serve` opens it: the data directory's SQLite
 * file, or the PostgreSQL database of `--database`. A command may run while the server does.
 * On SQLite the server holds its own connection; WAL lets this process read beside it, and its
 * writes wait for the server's (busy timeout) rather than fail. The server's connected clients
 * are not told of such a change until they reload (events live in the server's process). On
 * PostgreSQL the command joins the cluster for its run, so that its events reach every node's
 * clients as a request's would.
 */
import { closeContext, type Ctx } from '@teamchat/core';
import { joinCluster } from '../cluster.js';
import { CliError, DATABASE_FILE, hasDatabase, openDataDir } from '../data-dir.js';
import { postgresStorage } from '../database.js';
import { resolve } from 'node:path';

/** Runs `fn` on the installation's store and closes it afterwards. */
export async function withInstallation<T>(values: { data: string; database: string | undefined }, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  const url = values.database;
  if (url === undefined && !hasDatabase(values.data)) {
    throw new CliError(`--data: ${resolve(values.data)} is not initialised (no ${DATABASE_FILE}): run \`teamchat init\` or \`teamchat serve\` first, or name a PostgreSQL database with --database`);
  }
  const cluster = url === undefined ? undefined : await joinCluster(url, undefined);
  const storage = url === undefined ? undefined : postgresStorage(url, undefined, cluster?.events);
  const ctx = openDataDir(values.data, { storage, cluster, sqlite: { detectNestedCalls: false } });
  try {
    return await fn(ctx);
  } finally {
    await closeContext(ctx);
  }
}
