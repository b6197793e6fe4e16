/**
 * The management commands on PostgreSQL (`--database` and TEAMCHAT_DATABASE_URL), through the
 * built CLI, including while `teamchat serve` runs on the same database: a deactivation takes
 * effect on the running server at once. Runs in the `postgres` project only.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/serve-child.js';
import { databaseUrl, dropDatabases, TEST_DATABASE_PREFIX, TEST_DATABASE_URL, withAdmin } from '../helpers/storage.js';

const CLI = join(import.meta.dirname, '../../packages/cli/dist/cli.js');
const run = promisify(execFile);

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(env: Record<string, string>, ...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args], { env: { ...process.env, TEAMCHAT_DATABASE_URL: '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as Ran;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const created: string[] = [];
async function emptyDatabase(): Promise<string> {
  const name = `${TEST_DATABASE_PREFIX}admin_${process.pid}_${created.length + 1}`;
  await withAdmin((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  created.push(name);
  return databaseUrl(TEST_DATABASE_URL!, name);
}
afterAll(() => dropDatabases(created));

const freshDir = () => mkdtempSync(join(tmpdir(), 'teamchat-pg-admin-'));
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

describe('management commands on PostgreSQL', () => {
  it('create a realm, manage users and send messages beside a running server', { timeout: 120_000 }, async () => {
    const url = await emptyDatabase();
    const dir = freshDir();
    const flag = ['--data', dir, '--database', url];
    const ok = async (...args: string[]) => {
      const result = await cli({}, ...args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      return result.stdout;
    };

    // The first serve creates the root realm and its owner; the commands run beside it.
    const server = await spawnServe(['--data', dir, '--database', url, '--port', '0', '--url', 'http://acme.test']);
    try {
      const sales = JSON.parse(
        await ok('create-realm', ...flag, '--subdomain', 'sales', '--url', 'http://sales.acme.test', '--name', 'Sales', '--email', 'sam@acme.test', '--full-name', 'Sam Sales', '--json'),
      );
      expect(sales).toMatchObject({ realm_id: 2, subdomain: 'sales', realm_url: 'http://sales.acme.test', email: 'sam@acme.test' });
      // The environment variable names the database as well as the flag does.
      const listed = await cli({ TEAMCHAT_DATABASE_URL: url }, 'list-realms', '--data', dir, '--json');
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ id: 1, subdomain: '', url: 'http://acme.test' }),
        expect.objectContaining({ id: 2, subdomain: 'sales', url: 'http://sales.acme.test' }),
      ]);
      flag.push('--realm', 'http://acme.test');
      const boss = /email:\s+(\S+)/.exec(server.output())![1]!;
      const member = JSON.parse(await ok('create-user', ...flag, '--email', 'mo@acme.test', '--full-name', 'Mo Member', '--json'));
      const sent = JSON.parse(await ok('send-message', ...flag, '--to', boss, '--content', 'hello from the bot', '--json'));
      expect(sent).toEqual({ id: expect.any(Number) });
      const key = JSON.parse(await ok('regenerate-api-key', ...flag, '--email', boss, '--json')).api_key as string;
      expect(await ok('print-zuliprc', ...flag, '--email', boss)).toBe(`[api]\nemail=${boss}\nkey=${key}\nsite=http://acme.test\n`);
      // The running server answers with the key the command set, and shows the bot's message.
      const auth = { authorization: basic(boss, key) };
      const messages = await (await fetch(`${server.url}/api/v1/messages?anchor=newest&num_before=5&num_after=0`, { headers: auth })).json();
      expect(messages.messages.map((m: { content: string }) => m.content)).toContain('<p>hello from the bot</p>');

      // A deactivation by the command is refused by the running server at once.
      expect(await ok('deactivate-user', ...flag, '--email', 'mo@acme.test')).toBe(`Deactivated mo@acme.test (id ${member.user_id})\n`);
      const asMember = await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: basic('mo@acme.test', member.api_key) } });
      expect(asMember.status).toBe(401);
      expect(JSON.parse(await ok('list-users', ...flag, '--json'))).toEqual([expect.objectContaining({ email: boss, role_name: 'owner' })]);
      await ok('reactivate-user', ...flag, '--email', 'mo@acme.test');
      await ok('change-user-role', ...flag, '--email', 'mo@acme.test', '--role', 'moderator');
      await ok('change-password', ...flag, '--email', 'mo@acme.test', '--password', 'mo-new-password');
      expect(JSON.parse(await ok('list-users', ...flag, '--json'))).toEqual([
        expect.objectContaining({ email: boss, role_name: 'owner' }),
        expect.objectContaining({ email: 'mo@acme.test', role_name: 'moderator', is_active: true }),
      ]);
      const refused = await cli({}, 'deactivate-user', ...flag, '--email', boss);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/Cannot deactivate the only organization owner/);
      const unknown = await cli({}, 'change-user-role', ...flag, '--email', 'ghost@acme.test', '--role', 'admin');
      expect(unknown.stderr).toMatch(/No user with email 'ghost@acme\.test'/);
      const badUrl = await cli({}, 'list-realms', '--data', dir, '--database', 'mysql://x/y');
      expect(badUrl.stderr).toMatch(/--database takes a postgres:\/\/ URL/);
      expect(JSON.parse(await ok('delete-old-unclaimed-attachments', '--data', dir, '--database', url, '--json'))).toEqual({ deleted: false, attachments: [] });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
