/**
 * The CLI on PostgreSQL: `teamchat serve --database`, and `teamchat migrate` from a data
 * directory's SQLite file into an empty PostgreSQL database (IDs, uploads, count check).
 * Runs in the `postgres` project only (TEAMCHAT_TEST_DATABASE_URL).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { databaseUrl, dropDatabases, TEST_DATABASE_PREFIX, TEST_DATABASE_URL, withAdmin } from '../helpers/storage.js';

const CLI = join(import.meta.dirname, '../../packages/cli/dist/cli.js');
const run = promisify(execFile);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], { env: { ...process.env, TEAMCHAT_DATABASE_URL: '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const freshDir = () => mkdtempSync(join(tmpdir(), 'teamchat-pg-cli-'));
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

const created: string[] = [];
let databases = 0;
/** An empty database of its own (dropped after the file). */
async function emptyDatabase(): Promise<string> {
  const name = `${TEST_DATABASE_PREFIX}cli_${process.pid}_${++databases}`;
  await withAdmin((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  created.push(name);
  return databaseUrl(TEST_DATABASE_URL!, name);
}
afterAll(() => dropDatabases(created));

let children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children = [];
});

/** Starts `teamchat serve` and waits until it listens. */
function serve(dir: string, ...options: string[]): Promise<{ url: string; output: string; child: ChildProcess }> {
  const child = spawn('node', [CLI, 'serve', '--data', dir, '--port', '0', ...options], { env: { ...process.env, TEAMCHAT_DATABASE_URL: '' } });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1]!, output, child });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/**
 * The owner's credentials from the zuliprc a first `serve` wrote (its printed copy goes to
 * stderr, which may reach the test after the listening line on stdout).
 */
function credentials(dir: string): { email: string; key: string } {
  const rc = readFileSync(join(dir, 'zuliprc'), 'utf8');
  return { email: /email=(\S+)/.exec(rc)![1]!, key: /key=(\S+)/.exec(rc)![1]! };
}

describe('teamchat serve --database', () => {
  it('keeps the realm in PostgreSQL (no SQLite file), serves requests, and stops on SIGTERM', async () => {
    const url = await emptyDatabase();
    const dir = freshDir();
    const served = await serve(dir, '--database', url);
    expect(served.output).toMatch(/database: postgres:\/\//);
    const { email, key } = credentials(dir);
    const me = await fetch(`${served.url}/api/v1/users/me`, { headers: { authorization: basic(email, key) } });
    expect(await me.json()).toMatchObject({ result: 'success', email, role: 100 });
    expect(await stop(served.child)).toBe(0);
    expect(existsSync(join(dir, 'teamchat.db'))).toBe(false);
    const sql = postgres(url, { max: 1 });
    const [row] = await sql`SELECT count(*)::int AS n FROM realm`;
    await sql.end();
    expect(row!.n).toBe(1);

    // Served again from the same database: the same realm and owner, no new one.
    const again = await serve(freshDir(), '--database', url);
    expect(again.output).not.toMatch(/Created a new realm/);
    const meAgain = await fetch(`${again.url}/api/v1/users/me`, { headers: { authorization: basic(email, key) } });
    expect(await meAgain.json()).toMatchObject({ result: 'success', email });
  });

  it('exports the database size (pg_database_size), storage timings and sends on --metrics-port', async () => {
    const url = await emptyDatabase();
    const dir = freshDir();
    const served = await serve(dir, '--database', url, '--metrics-port', '0');
    const startup = JSON.parse(served.output.split('\n').find((line) => line.includes('listening on'))!) as { database: string; metricsUrl: string };
    expect(startup.database).toBe('postgresql');
    const { email, key } = credentials(dir);
    const body = new URLSearchParams({ type: 'direct', to: JSON.stringify([email]), content: 'note to self' });
    expect((await fetch(`${served.url}/api/v1/messages`, { method: 'POST', headers: { authorization: basic(email, key) }, body })).status).toBe(200);
    const text = await (await fetch(startup.metricsUrl)).text();
    expect(Number(/^teamchat_database_size_bytes (\d+)$/m.exec(text)![1])).toBeGreaterThan(1_000_000);
    expect(text).toMatch(/^teamchat_messages_sent_total\{type="private"\} 1$/m);
    expect(Number(/^teamchat_storage_commit_duration_seconds_count (\d+)$/m.exec(text)![1])).toBeGreaterThan(0);
    // Its own connection for the size is closed with the server.
    expect(await stop(served.child)).toBe(0);
  });

  it('refuses a URL that is not PostgreSQL, with a message', async () => {
    const result = await cli('serve', '--data', freshDir(), '--database', 'mysql://localhost/x');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--database takes a postgres:\/\/ URL/);
  });
});

describe('teamchat migrate', () => {
  it('copies a SQLite installation keeping IDs and uploads; the copy serves the same data and continues its IDs', async () => {
    // A SQLite installation with messages (one deleted, so kept IDs matter) and an upload.
    const dir = freshDir();
    const first = await serve(dir);
    const { email, key } = credentials(dir);
    const auth = { authorization: basic(email, key) };
    const me = (await (await fetch(`${first.url}/api/v1/users/me`, { headers: auth })).json()) as { user_id: number };
    const send = async (base: string, content: string) => {
      const body = new URLSearchParams({ type: 'direct', to: JSON.stringify([me.user_id]), content });
      const reply = (await (await fetch(`${base}/api/v1/messages`, { method: 'POST', headers: auth, body })).json()) as { id: number };
      return reply.id;
    };
    const ids = [await send(first.url, 'first'), await send(first.url, 'second'), await send(first.url, 'third')];
    await fetch(`${first.url}/api/v1/messages/${ids[2]}`, { method: 'DELETE', headers: auth });
    const form = new FormData();
    form.append('file', new Blob(['hello from sqlite']), 'hello.txt');
    const upload = (await (await fetch(`${first.url}/api/v1/user_uploads`, { method: 'POST', headers: auth, body: form })).json()) as { url: string };
    expect(upload.url).toMatch(/^\/user_uploads\//);
    expect(await stop(first.child)).toBe(0);

    const url = await emptyDatabase();
    const target = freshDir();
    const migrated = await cli('migrate', '--from', `sqlite:${dir}`, '--to', url, '--data', target);
    expect(migrated.stderr).toBe('');
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(/every table's count matches/);
    expect(migrated.stdout).toMatch(/^message\s+2 ok$/m);
    expect(migrated.stdout).not.toMatch(/MISMATCH/);

    const copy = await serve(target, '--database', url);
    const narrow = JSON.stringify([{ operator: 'dm', operand: [me.user_id] }]);
    const messages = (await (
      await fetch(`${copy.url}/api/v1/messages?anchor=newest&num_before=10&num_after=0&narrow=${encodeURIComponent(narrow)}`, { headers: auth })
    ).json()) as { messages: { id: number; content: string }[] };
    expect(messages.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
    // A new message takes an ID above every ID the installation ever used (the deleted one's too).
    expect(await send(copy.url, 'fourth')).toBeGreaterThan(ids[2]!);
    const file = await fetch(`${copy.url}${upload.url}`, { headers: auth });
    expect(await file.text()).toBe('hello from sqlite');
    // Search works on the copied messages (the full-text index is rebuilt).
    const search = JSON.stringify([{ operator: 'search', operand: 'second' }]);
    const found = (await (
      await fetch(`${copy.url}/api/v1/messages?anchor=newest&num_before=10&num_after=0&narrow=${encodeURIComponent(search)}`, { headers: auth })
    ).json()) as { messages: { id: number }[] };
    expect(found.messages.map((m) => m.id)).toEqual([ids[1]]);
  });

  it('refuses a target that already holds data, and bad arguments, with a message', async () => {
    const url = await emptyDatabase();
    const dir = freshDir();
    const served = await serve(dir, '--database', url);
    await stop(served.child);
    const source = freshDir();
    await stop((await serve(source)).child);
    const refused = await cli('migrate', '--from', `sqlite:${source}`, '--to', url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds data/);

    expect((await cli('migrate', '--from', source, '--to', url)).stderr).toMatch(/--from takes sqlite:DIR/);
    expect((await cli('migrate', '--from', `sqlite:${freshDir()}`, '--to', url)).stderr).toMatch(/holds no teamchat database/);
    expect((await cli('migrate', '--from', `sqlite:${source}`)).stderr).toMatch(/--to is required/);
  });
});
