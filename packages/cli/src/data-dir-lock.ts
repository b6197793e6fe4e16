/**
 * The data directory's lock: a pid file that `teamchat serve` and `teamchat restore` hold while
 * they use the directory, so a restore never replaces the files under a running server and a
 * server never starts on a half-restored directory. A file left by a process that died (kill -9,
 * power loss) names a pid that no longer runs, and is taken over.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from './data-dir.js';

export const LOCK_FILE = 'teamchat.pid';

interface LockRecord {
  pid: number;
  command: string;
  started_at: string;
}

export const lockPath = (dir: string) => join(resolve(dir), LOCK_FILE);

/**
 * Takes the lock of `dir` (created if missing) for `command`, or throws a CliError naming the
 * process that holds it. Released by the returned function and, at the latest, when this
 * process exits.
 */
export function holdDataDirLock(dir: string, command: string): () => void {
  mkdirSync(resolve(dir), { recursive: true, mode: 0o700 });
  const path = lockPath(dir);
  const record: LockRecord = { pid: process.pid, command, started_at: new Date().toISOString() };
  // Two tries: the second after removing a file whose process is gone.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify(record)}\n`, { flag: 'wx', mode: 0o600 });
      const release = () => releaseLock(path);
      process.once('exit', release);
      return () => {
        process.off('exit', release);
        release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(path);
      if (holder && isRunning(holder.pid)) {
        throw new CliError(
          `${resolve(dir)} is in use by \`teamchat ${holder.command}\` (pid ${holder.pid}, since ${holder.started_at}); ` +
            `stop it first (if no such process is teamchat, delete ${path})`,
        );
      }
      unlinkSync(path);
    }
  }
  throw new CliError(`could not take the lock ${path}: another process keeps creating it`);
}

/** The process holding `dir`, if a running one does. */
export function dataDirHolder(dir: string): LockRecord | undefined {
  const holder = readLock(lockPath(dir));
  return holder && isRunning(holder.pid) ? holder : undefined;
}

function readLock(path: string): LockRecord | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockRecord>;
    return Number.isInteger(parsed.pid) ? (parsed as LockRecord) : undefined;
  } catch {
    // Missing, or cut short by a crash while it was written: nobody holds it.
    return undefined;
  }
}

/** Removes the lock file if it is still this process's. */
function releaseLock(path: string): void {
  if (readLock(path)?.pid === process.pid) unlinkSync(path);
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
