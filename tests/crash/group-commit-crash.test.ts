/**
 * Group commit loses no acknowledged write across a crash. A child process writes through the
 * SQLite driver with many transactions in flight (so they commit in batches) and reports each
 * transaction its driver answered; the parent kills it with SIGKILL while batches are running,
 * reopens the file, and finds every acknowledged transaction whole. Transactions that were in
 * flight may or may not be there, but never half: each wrote two rows.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const CHILD = join(import.meta.dirname, 'batched-writer.ts');
const ROUNDS = 3;
/** The kill comes once this many transactions have been acknowledged in the round. */
const ACKS_BEFORE_KILL = 150;

const dir = mkdtempSync(join(tmpdir(), 'teamchat-group-commit-crash-'));
const children = new Set<ChildProcess>();
afterEach(async () => {
  await Promise.all([...children].map((child) => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    })));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the writer on `file` until `ACKS_BEFORE_KILL` acknowledgments, then SIGKILLs it; returns
 * the acknowledged numbers. With `checkpoint-often`, the kill also waits until the database file
 * has been written since the first acknowledgment: only checkpoints write it in WAL mode, so the
 * round is known to have checkpointed (on a loaded machine the worker may not have run by then).
 */
function writeUntilKilled(file: string, first: number, mode: string[] = []): Promise<number[]> {
  const checkpointing = mode.includes('checkpoint-often');
  const acknowledged: number[] = [];
  let modifiedAtFirstAck: number | undefined;
  const ready = () => {
    if (acknowledged.length < ACKS_BEFORE_KILL) return false;
    return !checkpointing || statSync(file).mtimeMs > modifiedAtFirstAck!;
  };
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file, String(first), ...mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let errors = '';
  let pending = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const match = /^ack (\d+)$/.exec(line);
        if (match) acknowledged.push(Number(match[1]));
      }
      if (modifiedAtFirstAck === undefined && acknowledged.length > 0) modifiedAtFirstAck = statSync(file).mtimeMs;
      if (ready()) child.kill('SIGKILL');
    });
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`the writer exited (${code}) before it was killed: ${errors}`));
    });
  });
}

/** Reopens `file` and lists the acknowledged transactions that are missing or partial, and the partial ones that were not acknowledged. */
async function check(file: string, acknowledged: number[]): Promise<{ missing: number[]; partial: [string, string[]][] }> {
  const storage = createSqliteStorage({ filename: file });
  try {
    const realm = (await storage.read((tx) => tx.realms.bySubdomain('crash')))!;
    const rows = await storage.read((tx) => tx.outbox.list(realm.id));
    const bodies = new Map<string, string[]>();
    // The checkpoint-often writer pads each body after a space.
    for (const row of rows) bodies.set(row.subject, [...(bodies.get(row.subject) ?? []), row.body.split(' ')[0]!]);
    const missing = acknowledged.filter((n) => bodies.get(String(n))?.join() !== 'first,second');
    const partial = [...bodies].filter(([, written]) => written.join() !== 'first,second');
    return { missing, partial };
  } finally {
    await storage.close();
  }
}

describe('group commit across a crash', () => {
  it('every acknowledged transaction survives SIGKILL during batched writes, whole; none is half there', { timeout: 120_000 }, async () => {
    const file = join(dir, 'crash.sqlite');
    const acknowledged: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round numbers its transactions apart from the others'.
      acknowledged.push(...(await writeUntilKilled(file, round * 1_000_000)));
    }
    const { missing, partial } = await check(file, acknowledged);
    expect(missing, `acknowledged transactions missing or partial (of ${acknowledged.length})`).toEqual([]);
    expect(partial).toEqual([]);
    // Every round ran until its kill: the check covered real batches of work.
    expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS * ACKS_BEFORE_KILL);
  });

  it('and across SIGKILL while the WAL checkpointer copies the WAL into the database file', { timeout: 120_000 }, async () => {
    const file = join(dir, 'checkpoint-crash.sqlite');
    const acknowledged: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round is killed only once a checkpoint has written the database file (writeUntilKilled).
      acknowledged.push(...(await writeUntilKilled(file, round * 1_000_000, ['checkpoint-often'])));
    }
    const { missing, partial } = await check(file, acknowledged);
    expect(missing, `acknowledged transactions missing or partial (of ${acknowledged.length})`).toEqual([]);
    expect(partial).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS * ACKS_BEFORE_KILL);
  });
});
