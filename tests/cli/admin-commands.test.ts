/**
 * The management commands (the reference's manage.py commands) through the built CLI on a data
 * directory: each one's output, and its errors (unknown user or realm, bad role, missing or
 * unknown option). tests/cli/postgres-admin.test.ts runs them on PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { closeContext, doCreateChannel, doUploadFile, getMessages, fileSystemBlobStore, findRealm, findUserAsOperator } from '@teamchat/core';
import { createSqliteContext } from '@teamchat/core/sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/serve-child.js';

const CLI = join(import.meta.dirname, '../../packages/cli/dist/cli.js');
const run = promisify(execFile);

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], { env: { ...process.env, TEAMCHAT_DATABASE_URL: '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as Ran;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Runs a command that must succeed and returns its standard output. */
async function ok(...args: string[]): Promise<string> {
  const result = await cli(...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

const okJson = async (...args: string[]) => JSON.parse(await ok(...args, '--json'));

function expectRefused(result: Ran, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

const freshDir = () => mkdtempSync(join(tmpdir(), 'teamchat-admin-'));
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

/** One installation for the file: a root realm at chat.acme.test with its owner, plus a member. */
let dir: string;
let data: string[];
beforeAll(async () => {
  dir = freshDir();
  data = ['--data', dir];
  await ok('init', ...data, '--realm-name', 'Acme', '--email', 'boss@acme.test', '--password', 'boss-password', '--full-name', 'The Boss', '--url', 'http://chat.acme.test');
  await ok('create-user', ...data, '--email', 'mo@acme.test', '--full-name', 'Mo Member', '--password', 'mo-password');
}, 60_000);

describe('list-realms and create-realm', () => {
  it('lists the root realm, creates a second one under a subdomain of its host, and refuses a taken subdomain or host', async () => {
    expect(await okJson('list-realms', ...data)).toEqual([
      { id: 1, subdomain: '', name: 'Acme', url: 'http://chat.acme.test', deactivated: false, date_created: expect.any(Number) },
    ]);
    const created = await okJson('create-realm', ...data, '--subdomain', 'sales', '--name', 'Sales', '--email', 'sam@acme.test', '--full-name', 'Sam Sales', '--password', 'sam-password');
    expect(created).toEqual({ realm_id: 2, subdomain: 'sales', realm_url: 'http://sales.chat.acme.test', user_id: expect.any(Number), email: 'sam@acme.test', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const table = await ok('list-realms', ...data);
    expect(table).toMatch(/^1 +\(root\) +http:\/\/chat\.acme\.test +Acme$/m);
    expect(table).toMatch(/^2 +sales +http:\/\/sales\.chat\.acme\.test +Sales$/m);

    const again = ['--name', 'X', '--email', 'x@acme.test', '--full-name', 'Xavier'];
    expectRefused(await cli('create-realm', ...data, '--subdomain', 'sales', ...again), /Subdomain 'sales' is already in use/);
    expectRefused(await cli('create-realm', ...data, '--subdomain', 'other', '--url', 'http://chat.acme.test', ...again), /host 'chat\.acme\.test' is already used by realm 1/);
    expectRefused(await cli('create-realm', ...data, '--subdomain', 'Bad_Name', ...again), /Invalid subdomain 'Bad_Name'/);
    expectRefused(await cli('create-realm', ...data, '--name', 'X', '--email', 'x@acme.test'), /^teamchat: --subdomain is required\n$/);
    expectRefused(await cli('list-realms', '--data', freshDir()), /is not initialised/);
  });

  it('a served installation answers each realm by the request\'s Host, and sees the commands\' writes at once', async () => {
    const base = freshDir();
    await ok('init', '--data', base, '--realm-name', 'Root', '--email', 'root@acme.test', '--password', 'root-password', '--url', 'http://chat.acme.test');
    const sales = await okJson('create-realm', '--data', base, '--subdomain', 'sales', '--name', 'Sales', '--email', 'sam@acme.test', '--full-name', 'Sam Sales');
    const server = await spawnServe(['--data', base, '--port', '0', '--url', 'http://chat.acme.test']);
    try {
      const settings = (host: string) => getJson(`${server.url}/api/v1/server_settings`, { host });
      expect(await settings('sales.chat.acme.test')).toMatchObject({ realm_name: 'Sales', realm_url: 'http://sales.chat.acme.test' });
      expect(await settings('chat.acme.test')).toMatchObject({ realm_name: 'Root', realm_url: 'http://chat.acme.test' });
      const me = await getJson(`${server.url}/api/v1/users/me`, { host: 'sales.chat.acme.test', authorization: basic('sam@acme.test', sales.api_key) });
      expect(me).toMatchObject({ result: 'success', email: 'sam@acme.test', role: 100 });
      // Commands write beside the running server (WAL, busy timeout): it sees each change at once.
      const pat = await okJson('create-user', '--data', base, '--realm', 'sales', '--email', 'pat@acme.test', '--full-name', 'Pat Sales');
      const asPat = () => getJson(`${server.url}/api/v1/users/me`, { host: 'sales.chat.acme.test', authorization: basic('pat@acme.test', pat.api_key) });
      expect(await asPat()).toMatchObject({ result: 'success', user_id: pat.user_id });
      await ok('deactivate-user', '--data', base, '--realm', 'sales', '--email', 'pat@acme.test');
      expect(await asPat()).toMatchObject({ result: 'error', msg: 'Account is deactivated' });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 60_000);
});

/** A GET with headers fetch() does not let a caller set (Host). */
function getJson(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('commands on a user of a realm', () => {
  const root = () => [...data, '--realm', 'http://chat.acme.test/'];

  it('list-users lists a realm\'s active users, --all the deactivated too; --realm is required with several realms', async () => {
    const users = await okJson('list-users', ...data, '--realm', '1');
    expect(users).toEqual([
      { user_id: 1, email: 'boss@acme.test', full_name: 'The Boss', role: 100, role_name: 'owner', is_active: true, is_bot: false },
      { user_id: 3, email: 'mo@acme.test', full_name: 'Mo Member', role: 400, role_name: 'member', is_active: true, is_bot: false },
    ]);
    expect(await ok('list-users', ...data, '--realm', 'sales')).toMatch(/^\d+ +sam@acme\.test +owner +Sam Sales$/m);
    expectRefused(await cli('list-users', ...data), /--realm is required: this installation has 2 realms \(1 \(root\) http:\/\/chat\.acme\.test, 2 sales/);
    expectRefused(await cli('list-users', ...data, '--realm', 'nowhere'), /--realm: no realm 'nowhere'/);
  });

  it('change-user-role sets a role by name or number and refuses a bad role or an unknown user', async () => {
    expect(await ok('change-user-role', ...root(), '--email', 'mo@acme.test', '--role', 'moderator')).toBe('mo@acme.test is now moderator (300)\n');
    expect(await okJson('change-user-role', ...root(), '--email', 'MO@acme.test', '--role', '200')).toMatchObject({ user_id: 3, role: 200, role_name: 'admin' });
    expectRefused(await cli('change-user-role', ...root(), '--email', 'mo@acme.test', '--role', 'king'), /--role: invalid role 'king'/);
    expectRefused(await cli('change-user-role', ...root(), '--email', 'nobody@acme.test', '--role', 'member'), /No user with email 'nobody@acme\.test'/);
    expectRefused(await cli('change-user-role', ...root(), '--email', 'mo@acme.test'), /--role is required/);
    expectRefused(await cli('change-user-role', ...root(), '--email', 'boss@acme.test', '--role', 'admin'), /cannot be removed from the only organization owner/);
    expectRefused(await cli('change-user-role', ...root(), '--email', 'mo@acme.test', '--role', 'member', '--rol', 'x'), /Unknown option '--rol'/);
    await ok('change-user-role', ...root(), '--email', 'mo@acme.test', '--role', 'member');
  });

  it('deactivate-user and reactivate-user; the only owner stays', async () => {
    expect(await ok('deactivate-user', ...root(), '--email', 'mo@acme.test')).toBe('Deactivated mo@acme.test (id 3)\n');
    expect((await okJson('list-users', ...root(), '--all')).find((u: { user_id: number }) => u.user_id === 3)).toMatchObject({ is_active: false });
    expect((await okJson('list-users', ...root())).map((u: { user_id: number }) => u.user_id)).toEqual([1]);
    expectRefused(await cli('deactivate-user', ...root(), '--email', 'mo@acme.test'), /already deactivated/);
    expect(await okJson('reactivate-user', ...root(), '--email', 'mo@acme.test')).toMatchObject({ user_id: 3, is_active: true });
    expectRefused(await cli('reactivate-user', ...root(), '--email', 'mo@acme.test'), /User is already active/);
    expectRefused(await cli('deactivate-user', ...root(), '--email', 'boss@acme.test'), /Cannot deactivate the only organization owner/);
    expectRefused(await cli('deactivate-user', ...root(), '--email', 'ghost@acme.test'), /No user with email 'ghost@acme\.test'/);
    expectRefused(await cli('reactivate-user', ...root()), /--email is required/);
  });

  it('change-password from the flag or standard input (only its first line)', async () => {
    expect(await ok('change-password', ...root(), '--email', 'mo@acme.test', '--password', 'new-password-1')).toBe('Changed the password of mo@acme.test\n');
    const piped = await new Promise<Ran>((resolve) => {
      const child = execFile('node', [CLI, 'change-password', ...root(), '--email', 'mo@acme.test'], (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
      child.stdin!.end('new-password-2\nignored\n');
    });
    expect(piped).toEqual({ code: 0, stdout: 'Changed the password of mo@acme.test\n', stderr: '' });
    expectRefused(await cli('change-password', ...root(), '--email', 'mo@acme.test', '--password', 'x'), /password/i);
    expectRefused(await cli('change-password', ...root(), '--email', 'nobody@acme.test', '--password', 'long-enough-1'), /No user with email/);
  });

  it('regenerate-api-key replaces the key that print-zuliprc prints', async () => {
    const before = await ok('print-zuliprc', ...root(), '--email', 'mo@acme.test');
    const key = /^key=(\S+)$/m.exec(before)![1]!;
    expect(before).toBe(`[api]\nemail=mo@acme.test\nkey=${key}\nsite=http://chat.acme.test\n`);
    const regenerated = await okJson('regenerate-api-key', ...root(), '--email', 'mo@acme.test');
    expect(regenerated).toEqual({ user_id: 3, email: 'mo@acme.test', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(regenerated.api_key).not.toBe(key);
    expect(await ok('print-zuliprc', ...root(), '--email', 'mo@acme.test')).toContain(`key=${regenerated.api_key}\n`);
    expectRefused(await cli('regenerate-api-key', ...root(), '--email', 'nobody@acme.test'), /No user with email/);
    expectRefused(await cli('print-zuliprc', ...root(), '--email', 'nobody@acme.test'), /No user with email/);
    expectRefused(await cli('print-zuliprc', ...root(), '--json'), /Unknown option '--json'/);
  });

  it('send-message as the Notification Bot or a user, to a channel topic or directly', async () => {
    await withInstallationCtx(async (ctx, realm) => {
      const owner = must(await findUserAsOperator(ctx, realm, 'boss@acme.test'));
      must(await doCreateChannel(ctx, { realm, user: owner }, { name: 'announce', description: '', subscribers: [owner.id] }));
    });
    const fromBot = await okJson('send-message', ...root(), '--channel', 'announce', '--topic', 'news', '--content', 'Hello **all**');
    expect(fromBot).toEqual({ id: expect.any(Number) });
    expect(await ok('send-message', ...root(), '--to', 'mo@acme.test,boss@acme.test', '--content', 'a notice')).toMatch(/^Sent message \d+\n$/);
    const fromUser = await okJson('send-message', ...root(), '--sender', 'mo@acme.test', '--to', 'boss@acme.test', '--content', 'hi boss');
    expect(fromUser.id).toBeGreaterThan(fromBot.id);
    const seen = await withInstallationCtx(async (ctx, realm) => {
      const owner = must(await findUserAsOperator(ctx, realm, 'boss@acme.test'));
      const page = must(await getMessages(ctx, { realm, user: owner }, { anchor: 'newest', num_before: 3, num_after: 0 }));
      return page.messages.map((m) => ({ sender: m.sender_email, to: m.display_recipient, topic: m.subject, content: m.content }));
    });
    expect(seen).toEqual([
      { sender: 'notification-bot@zulip.com', to: 'announce', topic: 'news', content: '<p>Hello <strong>all</strong></p>' },
      { sender: 'notification-bot@zulip.com', to: expect.any(Array), topic: '', content: '<p>a notice</p>' },
      { sender: 'mo@acme.test', to: expect.any(Array), topic: '', content: '<p>hi boss</p>' },
    ]);
    expectRefused(await cli('send-message', ...root(), '--channel', 'nowhere', '--topic', 't', '--content', 'x'), /No channel named 'nowhere'/);
    expectRefused(await cli('send-message', ...root(), '--to', 'ghost@acme.test', '--content', 'x'), /No user with email 'ghost@acme\.test'/);
    expectRefused(await cli('send-message', ...root(), '--sender', 'ghost@acme.test', '--to', 'boss@acme.test', '--content', 'x'), /No user with email 'ghost@acme\.test'/);
    expectRefused(await cli('send-message', ...root(), '--channel', 'announce', '--content', 'x'), /--topic is required with --channel/);
    expectRefused(await cli('send-message', ...root(), '--content', 'x'), /--channel \(with --topic\) or --to is required/);
    expectRefused(await cli('send-message', ...root(), '--channel', 'announce', '--to', 'boss@acme.test', '--content', 'x'), /exclude each other/);
    expectRefused(await cli('send-message', ...root(), '--to', 'boss@acme.test'), /--content is required/);
  });
});

describe('delete-old-unclaimed-attachments', () => {
  it('lists unclaimed uploads older than --weeks, and deletes them only with --for-real', async () => {
    const threeWeeksAgo = Date.now() - 21 * 24 * 3600 * 1000;
    const pathId = await withInstallationCtx(async (ctx, realm) => {
      const owner = must(await findUserAsOperator(ctx, realm, 'boss@acme.test'));
      const upload = must(await doUploadFile(ctx, { realm, user: owner }, { file: { filename: 'old.txt', contentType: 'text/plain', bytes: Buffer.from('old') } }));
      return upload.url.replace(/^\/user_uploads\//, '');
    }, threeWeeksAgo);
    const file = join(dir, 'uploads', pathId);
    expect(existsSync(file)).toBe(true);

    expect(await okJson('delete-old-unclaimed-attachments', ...data)).toEqual({ deleted: false, attachments: [] });
    const dry = await ok('delete-old-unclaimed-attachments', ...data, '--weeks', '2');
    expect(dry).toContain(`* ${pathId} (3 bytes, created `);
    expect(dry).toMatch(/This was a dry run: pass --for-real to delete them\.\n$/);
    expect(existsSync(file)).toBe(true);
    const deleted = await okJson('delete-old-unclaimed-attachments', ...data, '--weeks', '2', '--for-real');
    expect(deleted).toEqual({ deleted: true, attachments: [{ id: expect.any(Number), realm_id: 1, path_id: pathId, file_name: 'old.txt', size: 3, create_time: expect.any(Number) }] });
    expect(existsSync(file)).toBe(false);
    expect(await okJson('delete-old-unclaimed-attachments', ...data, '--weeks', '0')).toEqual({ deleted: false, attachments: [] });
    expectRefused(await cli('delete-old-unclaimed-attachments', ...data, '--weeks', 'many'), /--weeks takes a whole number from 0 to 10000, not 'many'/);
    expectRefused(await cli('delete-old-unclaimed-attachments', ...data, '--for-reel'), /Unknown option '--for-reel'/);
  });
});

function must<T>(result: { isOk(): boolean; value?: T; error?: unknown }): T {
  if (!result.isOk()) throw new Error(JSON.stringify(result.error));
  return result.value as T;
}

/** Works on the test's data directory in this process (for setup the CLI has no command for). */
async function withInstallationCtx<T>(fn: (ctx: Parameters<typeof closeContext>[0], realm: NonNullable<Awaited<ReturnType<typeof findRealm>>>) => Promise<T>, now?: number): Promise<T> {
  const ctx = createSqliteContext({ databaseFile: join(dir, 'teamchat.db'), uploads: fileSystemBlobStore(join(dir, 'uploads')), ...(now ? { clock: { now: () => now } } : {}) });
  try {
    return await fn(ctx, (await findRealm(ctx))!);
  } finally {
    await closeContext(ctx);
  }
}
