/**
 * The processes the suite starts: the server under test (the built CLI) and the baselines, each
 * pinned to the server core with taskset where it exists, the load generator (this process)
 * pinned to the other. Every process started here is stopped by `stopAll`, which run.ts calls on
 * success, on error and on SIGINT/SIGTERM.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = fileURLToPath(new URL('../packages/cli/dist/cli.js', import.meta.url));
export const SERVER_CORE = 1;
export const LOAD_CORE = 0;

const running = new Set<ChildProcess>();

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether processes are pinned; decided once, when the suite pins itself to the load core. */
export const pinning = hasTaskset();

/** Pins this process (all its threads: autocannon, the hand-written clients) to the load core. */
export function pinLoadGenerator(): string {
  if (!pinning) return 'taskset not found: server and load generator share the cores (figures are noisier)';
  execFileSync('taskset', ['-a', '-p', '-c', String(LOAD_CORE), String(process.pid)], { stdio: 'ignore' });
  return `taskset: server on core ${SERVER_CORE}, load generator on core ${LOAD_CORE}`;
}

/** A free loopback port (taken and released at once; nothing else on this machine races for it in practice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface Started {
  child: ChildProcess;
  /** Everything the process wrote to stdout so far (for the ready line, and errors). */
  output(): string;
}

/**
 * Starts `node args…` on the server core and resolves once its stdout contains `ready`. With
 * `ipc`, the child gets an IPC channel (process.send) as fork would give it.
 */
export async function startNode(args: string[], ready: string | RegExp, options: { ipc?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Started> {
  const command = pinning ? 'taskset' : process.execPath;
  const argv = pinning ? ['-c', String(SERVER_CORE), process.execPath, ...args] : args;
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (typeof ready === 'string' ? stdout.includes(ready) : ready.test(stdout)) {
        child.stdout!.off('data', check);
        child.off('exit', failed);
        resolve();
      }
    };
    const failed = (code: number | null) => reject(new Error(`${args.join(' ')} exited with ${code} before it was ready:\n${stdout}${stderr}`));
    child.stdout!.on('data', check);
    child.once('exit', failed);
  });
  return { child, output: () => stdout + stderr };
}

/** Stops one process: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stop(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Stops every process this suite started and has not stopped yet. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stop(child)));
}

/** Last resort at exit (synchronous): kills whatever is still running. */
export function killAllNow(): void {
  for (const child of running) child.kill('SIGKILL');
}

const tsxArgs = (script: string, scriptArgs: string[], gc = false) => [
  ...(gc ? ['--expose-gc'] : []),
  '--import',
  'tsx',
  fileURLToPath(new URL(script, import.meta.url)),
  ...scriptArgs,
];

/**
 * Starts `node --import tsx bench/<script>` (a baseline server or the memory server) on the
 * server core; it prints `listening PORT` when it is ready.
 */
export async function startScript(script: string, scriptArgs: string[], options: { ipc?: boolean; gc?: boolean } = {}): Promise<Started & { url: string }> {
  const started = await startNode(tsxArgs(script, scriptArgs, options.gc), /^listening \d+$/m, options);
  return { ...started, url: `http://127.0.0.1:${/^listening (\d+)$/m.exec(started.output())![1]}` };
}

/** Runs `node --import tsx bench/<script>` on the server core to its end; resolves with the JSON of its `result {…}` line. */
export async function runScript<T>(script: string, scriptArgs: string[]): Promise<T> {
  const { child, output } = await startNode(tsxArgs(script, scriptArgs), /^result .*$/m);
  await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  return JSON.parse(/^result (.*)$/m.exec(output())![1]!) as T;
}

/** The server under test: the built CLI serving `dataDir` on a loopback port. */
export async function startTeamchat(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const { child } = await startNode(
    [CLI, 'serve', '--data', dataDir, '--host', '127.0.0.1', '--port', String(port), '--shutdown-timeout', '1', '--no-rate-limits'],
    'teamchat is listening on',
  );
  return { url: `http://127.0.0.1:${port}`, child };
}
