/**
 * `teamchat serve` as a child process, from the CLI's source (through tsx), for the tests that
 * need a real process: resolves once it prints where it listens, rejects if it exits first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
export const CLI_SOURCE = join(ROOT, 'packages/cli/src/cli.ts');

export interface ServeChild {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  /** Everything the process printed so far, stdout and stderr. */
  output: () => string;
}

/**
 * Starts `teamchat serve <args>`; `label` names it in the error when it exits before listening.
 * Its rate limits are off (`--no-rate-limits`: tests send many requests as one user) unless
 * `rateLimits` is set.
 */
export async function spawnServe(args: readonly string[], label = 'serve', options: { rateLimits?: boolean } = {}): Promise<ServeChild> {
  const limits = options.rateLimits ? [] : ['--no-rate-limits'];
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_SOURCE, 'serve', ...args, ...limits], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`${label} exited early:\n${output}`)));
  });
  return { child, url, exited, output: () => output };
}
