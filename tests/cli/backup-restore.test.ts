/**
 * `teamchat backup` and `teamchat restore` against a real `teamchat serve` process: a backup
 * taken while messages are being sent is one consistent snapshot (a prefix of the acknowledged
 * sends, every table's row count what that prefix implies), restores into a fresh directory, and
 * a server started on the restored directory serves its messages and uploads.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_SOURCE, ROOT, spawnServe } from '../helpers/serve-child.js';
import { openRaw } from '../contract/core-deps.js';

const run = promisify(execFile);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI_SOURCE, ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

interface Served {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  auth: string;
}

/** Starts `teamchat serve` on a free port; its owner's credentials come from DIR/zuliprc. */
async function serveProcess(dir: string): Promise<Served> {
  const { child, url, exited } = await spawnServe(['--data', dir, '--port', '0', '--shutdown-timeout', '1']);
  children.push(child);
  const rc = readFileSync(join(dir, 'zuliprc'), 'utf8');
  const auth = `Basic ${Buffer.from(`${/email=(.*)/.exec(rc)![1]}:${/key=(.*)/.exec(rc)![1]}`).toString('base64')}`;
  return { child, url, exited, auth };
}

async function stop(served: Served): Promise<void> {
  served.child.kill('SIGTERM');
  expect(await served.exited).toBe(0);
}

async function api(served: Served, method: string, path: string, body?: Record<string, string> | FormData) {
  const response = await fetch(`${served.url}/api/v1${path}`, {
    method,
    headers: { authorization: served.auth },
    body: body instanceof FormData ? body : body && new URLSearchParams(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function sendToSelf(served: Served, userId: number, content: string): Promise<number> {
  const sent = await api(served, 'POST', '/messages', { type: 'direct', to: JSON.stringify([userId]), content });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body.id as number;
}

function tableCounts(dataDir: string): Record<string, number> {
  const db = openRaw(join(dataDir, 'teamchat.db'), { readonly: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
    return Object.fromEntries(names.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).all()[0] as { n: number }).n]));
  } finally {
    db.close();
  }
}

/** Full-text index pages: how many rows a message adds to them depends on segment merges, not on the message. */
const FTS_STORAGE_TABLES = new Set(['message_fts_data', 'message_fts_idx']);

const freshDir = () => join(mkdtempSync(join(tmpdir(), 'teamchat-backup-')), 'data');

describe('teamchat backup and restore', () => {
  it('backs up a server under write load and restores a directory another server serves in full', { timeout: 180_000 }, async () => {
    const dir = freshDir();
    const original = await serveProcess(dir);
    const me = (await api(original, 'GET', '/users/me')).body.user_id as number;

    // Before the load: an uploaded file, linked from a message, and one message to self (so the
    // direct-message conversation's one-time rows exist before the counts are taken).
    const form = new FormData();
    const fileBytes = Buffer.from(`backup test file ${Date.now()}\n`);
    form.append('file', new Blob([fileBytes], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await api(original, 'POST', '/user_uploads', form);
    expect(uploaded.status).toBe(200);
    const uri = uploaded.body.url as string;
    const linking = await sendToSelf(original, me, `see [notes](${uri})`);
    const before = tableCounts(dir);

    // Four senders, each waiting for its answer before its next send, until told to stop.
    const acked: number[] = [];
    const content = new Map<number, string>();
    let started = 0;
    let stopping = false;
    const sender = async (lane: number) => {
      for (let i = 0; !stopping; i++) {
        started += 1;
        const text = `load ${lane}-${i}`;
        const id = await sendToSelf(original, me, text);
        acked.push(id);
        content.set(id, text);
      }
    };
    const senders = [0, 1, 2, 3].map(sender);
    while (acked.length < 20) await new Promise((r) => setTimeout(r, 10));

    const archive = join(dir, '..', 'backup.tar.gz');
    const ackedBeforeBackup = acked.length;
    const backup = await cli('backup', '--data', dir, '--out', archive, '--json');
    const startedBeforeBackupEnd = started;
    expect(backup.code, backup.stderr).toBe(0);
    // Sends go on after the backup, so the snapshot is neither the first nor the last state.
    const target = acked.length + 20;
    while (acked.length < target) await new Promise((r) => setTimeout(r, 10));
    stopping = true;
    await Promise.all(senders);
    const after = tableCounts(dir);
    const manifest = JSON.parse(backup.stdout) as { format_version: number; schema_version: number; tables: Record<string, number>; uploads: { files: number } };
    expect(manifest).toMatchObject({ format: 'teamchat-backup', format_version: 1, uploads: { files: 1 } });
    expect(manifest.schema_version).toBeGreaterThan(0);

    // A running server's directory is never restored over, even with --force.
    const refused = await cli('restore', '--archive', archive, '--data', dir, '--force');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is in use by `teamchat serve` \(pid \d+/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect((await api(original, 'GET', `/messages/${linking}`)).status).toBe(200);
    // Nor does a second server start on it: the lock is the same.
    const second = await cli('serve', '--data', dir, '--port', '0');
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/is in use by `teamchat serve`/);
    await stop(original);
    expect(existsSync(join(dir, 'teamchat.pid'))).toBe(false);

    const restoredDir = freshDir();
    const restore = await cli('restore', '--archive', archive, '--data', restoredDir);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^Restored /);
    const restored = tableCounts(restoredDir);

    // The snapshot holds a prefix of the sends in commit (ID) order: one instant of the database.
    const sorted = [...acked].sort((a, b) => a - b);
    // Writable for the full-text index's integrity check (a write statement), run before any server opens the copy.
    const db = openRaw(join(restoredDir, 'teamchat.db'));
    const present = new Set((db.prepare('SELECT id FROM message WHERE id > ?').all(linking) as { id: number }[]).map((r) => r.id));
    const k = present.size;
    expect([...present].sort((a, b) => a - b)).toEqual(sorted.slice(0, k));
    expect(k).toBeGreaterThanOrEqual(ackedBeforeBackup);
    expect(k).toBeLessThanOrEqual(startedBeforeBackupEnd);
    expect(k).toBeLessThan(sorted.length);
    // The full-text index is whole, whatever its page count.
    db.exec("INSERT INTO message_fts(message_fts) VALUES ('integrity-check')");
    db.close();

    // Every table: each send adds the same rows, so the snapshot holds `before` plus k sends' worth.
    expect(Object.keys(restored).sort()).toEqual(Object.keys(after).sort());
    expect(manifest.tables).toEqual(restored);
    const n = acked.length;
    for (const table of Object.keys(after)) {
      if (FTS_STORAGE_TABLES.has(table)) continue;
      const delta = after[table]! - before[table]!;
      expect(delta % n, `${table} grows by ${delta} over ${n} sends`).toBe(0);
      expect(restored[table], table).toBe(before[table]! + (delta / n) * k);
    }

    // A server on the restored directory serves the messages and the uploaded file.
    const copy = await serveProcess(restoredDir);
    // Migrated and answering: the probe a supervisor would wait on after a restore.
    expect((await fetch(`${copy.url}/ready`)).status).toBe(200);
    const sample = [sorted[0]!, sorted[Math.floor(k / 2)]!, sorted[k - 1]!];
    for (const id of sample) {
      const got = await api(copy, 'GET', `/messages/${id}?apply_markdown=false`);
      expect(got.status).toBe(200);
      expect((got.body.message as { content: string }).content).toBe(content.get(id));
    }
    expect((await api(copy, 'GET', `/messages/${sorted[k]}`)).status).toBe(400);
    const file = await fetch(`${copy.url}${uri}`, { headers: { authorization: copy.auth } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(fileBytes);
    await stop(copy);
  });

  it('refuses a non-empty directory unless --force, and takes over a lock whose process is gone', { timeout: 90_000 }, async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const init = await cli('init', '--data', dir, '--realm-name', 'Acme', '--email', 'boss@acme.test', '--password', 'boss-password');
    expect(init.code, init.stderr).toBe(0);
    const archive = join(dir, '..', 'acme.tgz');
    expect((await cli('backup', '--data', dir, '--out', archive)).code).toBe(0);

    const target = freshDir();
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'keep.txt'), 'not teamchat');
    const notEmpty = await cli('restore', '--archive', archive, '--data', target);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toMatch(/--data: .* is not empty \(keep\.txt\); pass --force/);
    expect(existsSync(join(target, 'teamchat.db'))).toBe(false);

    // A lock left by a process that no longer runs (the server was killed) does not hold the directory.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(join(target, 'teamchat.pid'), JSON.stringify({ pid: dead.pid, command: 'serve', started_at: '2026-01-01T00:00:00Z' }));
    const forced = await cli('restore', '--archive', archive, '--data', target, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(target, 'keep.txt'))).toBe(false);
    expect(existsSync(join(target, 'teamchat.pid'))).toBe(false);
    expect(tableCounts(target)).toEqual(tableCounts(dir));
  });

  it('rejects archives that are not teamchat backups before touching the directory', { timeout: 60_000 }, async () => {
    const base = mkdtempSync(join(tmpdir(), 'teamchat-backup-'));
    const garbage = join(base, 'garbage.tgz');
    writeFileSync(garbage, 'not an archive at all');
    const target = join(base, 'target');
    const result = await cli('restore', '--archive', garbage, '--data', target);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--archive: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(target, 'teamchat.db'))).toBe(false);
  });

  it('has help texts and names a missing or unknown option', { timeout: 60_000 }, async () => {
    const help = await cli('backup', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: teamchat backup \[options\]/);
    expect(help.stdout).toMatch(/--out <FILE> +where to write the archive \(required\)/);
    const restoreHelp = await cli('restore', '--help');
    expect(restoreHelp.stdout).toMatch(/--force/);
    expect((await cli('backup', '--data', freshDir())).stderr).toMatch(/--out is required/);
    expect((await cli('restore', '--data', freshDir())).stderr).toMatch(/--archive is required/);
    expect((await cli('backup', '--bogus')).stderr).toMatch(/Unknown option '--bogus'/);
    const missing = await cli('backup', '--data', freshDir(), '--out', join(tmpdir(), 'x.tgz'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--data: .* has no database/);
  });
});
