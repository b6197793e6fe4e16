/**
 * `teamchat serve` processes on one PostgreSQL database and one shared data directory (for
 * uploads and the owner's zuliprc), run from source through tsx as in tests/cli.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnServe } from '../helpers/serve-child.js';

export interface Node {
  nodeId: string;
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** Everything the process wrote, for failure messages. */
  output(): string;
}

const started: ChildProcess[] = [];

/** Kills every process still running (afterEach). */
export function killAll(): void {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Starts a node and resolves once it listens. */
export async function startNode(database: string, dataDir: string, nodeId: string, port = 0): Promise<Node> {
  const args = ['--database', database, '--data', dataDir, '--port', String(port), '--node-id', nodeId, '--shutdown-timeout', '1'];
  const served = await spawnServe(args, `serve ${nodeId}`);
  started.push(served.child);
  return { nodeId, ...served };
}

/** Stops a node with SIGTERM and waits for it to exit. */
export async function stopNode(node: Node): Promise<void> {
  node.child.kill('SIGTERM');
  await node.exited;
}

export interface Credentials {
  email: string;
  key: string;
  authorization: string;
}

/** The owner's credentials, from the zuliprc the first node wrote. */
export function ownerCredentials(dataDir: string): Credentials {
  const rc = readFileSync(join(dataDir, 'zuliprc'), 'utf8');
  const email = /email=(.*)/.exec(rc)![1]!.trim();
  const key = /key=(.*)/.exec(rc)![1]!.trim();
  return { email, key, authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` };
}

/** Calls the API of `node`; the body is a form. Resolves with the status and the parsed JSON. */
export async function api(
  node: Pick<Node, 'url'>,
  method: string,
  path: string,
  options: { auth?: Credentials | null; form?: Record<string, string>; query?: Record<string, string>; signal?: AbortSignal } = {},
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests.
): Promise<{ status: number; body: any }> {
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  const headers: Record<string, string> = {};
  if (options.auth) headers.authorization = options.auth.authorization;
  const response = await fetch(`${node.url}/api/v1${path}${query}`, {
    method,
    headers,
    body: options.form ? new URLSearchParams(options.form) : undefined,
    signal: options.signal,
  });
  return { status: response.status, body: JSON.parse(await response.text()) };
}
