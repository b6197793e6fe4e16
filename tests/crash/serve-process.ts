/**
 * A child `teamchat serve` (the built CLI) on a data directory, for crash tests: started on an
 * ephemeral port, killed with SIGKILL, and always reaped (`killAll` in afterEach/afterAll).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'packages/cli/dist/cli.js');

/** Builds the packages when the CLI has not been built yet (a fresh checkout). */
export function ensureBuiltCli(): void {
  if (!existsSync(CLI)) execFileSync('npx', ['-y', 'pnpm@10', 'run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

export interface ServeProcess {
  url: string;
  /** All stdout so far: the server's log. */
  output: string;
  child: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

const children = new Set<ChildProcess>();

/** Starts `teamchat serve --data dir --port 0` and waits until it listens (at most `startMs`). */
export function startServe(dir: string, startMs = 15_000): Promise<ServeProcess> {
  const child = spawn('node', [CLI, 'serve', '--data', dir, '--port', '0', '--no-rate-limits'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
      children.delete(child);
      resolve();
    }));
  let output = '';
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within ${startMs} ms: ${output}${errors}`));
    }, startMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, output, child, exited });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code ?? signal}) before listening: ${output}${errors}`));
    });
  });
}

/** SIGKILLs the process (no graceful close: the point is an abrupt crash) and waits for it to go. */
export async function crash(server: ServeProcess): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

/** Kills every child this file started that is still running. */
export async function killAll(): Promise<void> {
  const waiting = [...children].map((child) => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    }));
  await Promise.all(waiting);
}
