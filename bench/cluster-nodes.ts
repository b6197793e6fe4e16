/**
 * The servers of one cluster configuration: one `teamchat serve` on a SQLite data directory, or
 * N `teamchat serve --database postgres://… --node-id nI` on one PostgreSQL database. Each
 * PostgreSQL node has its own data directory: the directory lock admits one server, and no
 * figure here uploads a file. Every node runs on the server core, as in the other groups.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, freePort, startNode, startTeamchat, stop } from './processes.js';

export interface Nodes {
  /** "SQLite, 1 process", "PostgreSQL, 2 processes". */
  label: string;
  urls: string[];
  stop(): Promise<void>;
}

/** One server on the SQLite data directory `dir`. */
export async function sqliteNode(dir: string): Promise<Nodes> {
  const { url, child } = await startTeamchat(dir);
  return { label: 'SQLite, 1 process', urls: [url], stop: () => stop(child) };
}

/** `count` servers on the PostgreSQL database `database`, their data directories under `parent`; started one after the other. */
export async function postgresNodes(database: string, count: number, parent: string): Promise<Nodes> {
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  const stopAll = () => Promise.all(children.map((child) => stop(child))).then(() => undefined);
  try {
    for (let i = 0; i < count; i++) {
      const dir = join(parent, `node-${i}`);
      mkdirSync(dir, { recursive: true });
      const port = await freePort();
      const args = [CLI, 'serve', '--database', database, '--data', dir, '--node-id', `n${i}`, '--host', '127.0.0.1', '--port', String(port), '--shutdown-timeout', '1', '--no-rate-limits'];
      const { child } = await startNode(args, 'teamchat is listening on');
      children.push(child);
      urls.push(`http://127.0.0.1:${port}`);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { label: `PostgreSQL, ${count} process${count > 1 ? 'es' : ''}`, urls, stop: stopAll };
}
