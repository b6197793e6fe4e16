import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';

const CLI = join(import.meta.dirname, '../../packages/cli/dist/cli.js');
const run = promisify(execFile);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [CLI, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const freshDir = () => mkdtempSync(join(tmpdir(), 'teamchat-cli-'));
const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

async function init(dir: string) {
  const result = await cli('init', '--data', dir, '--realm-name', 'Acme', '--email', 'boss@acme.test', '--password', 'boss-password', '--full-name', 'The Boss', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { realm_url: string; user_id: number; email: string; api_key: string };
}

describe('teamchat init', () => {
  it('prints the realm URL and the owner as JSON', async () => {
    const out = await init(freshDir());
    expect(out).toEqual({ realm_url: 'http://127.0.0.1:9991', user_id: 1, email: 'boss@acme.test', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
  });

  it('refuses an initialised directory', async () => {
    const dir = freshDir();
    await init(dir);
    const again = await cli('init', '--data', dir, '--realm-name', 'Other', '--email', 'x@acme.test', '--password', 'password1', '--json');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already initialised/);
    expect(again.stderr).not.toMatch(/\n\s+at /);
  });

  it('names a missing option', async () => {
    const result = await cli('init', '--data', freshDir(), '--realm-name', 'Acme', '--password', 'password1');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--email is required/);
  });
});

describe('teamchat create-user and change-user', () => {
  it('creates users and bots and changes operator-only permissions', async () => {
    const dir = freshDir();
    await init(dir);
    // init creates the owner (1) and the realm's Notification Bot (2).
    const user = await cli('create-user', '--data', dir, '--email', 'mod@acme.test', '--full-name', 'Mo', '--role', 'moderator', '--password', 'mod-password', '--json');
    expect(JSON.parse(user.stdout)).toEqual({ user_id: 3, email: 'mod@acme.test', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const bot = await cli('create-user', '--data', dir, '--email', 'bot@acme.test', '--full-name', 'Botty', '--bot', '--json');
    expect(JSON.parse(bot.stdout)).toMatchObject({ user_id: 4, email: 'bot@acme.test' });

    const changed = await cli('change-user', '--data', dir, '--email', 'mod@acme.test', '--role', '200', '--can-create-users', 'true', '--json');
    expect(JSON.parse(changed.stdout)).toEqual({ user_id: 3, email: 'mod@acme.test', role: 200, can_create_users: true, can_change_user_emails: false });

    const duplicate = await cli('create-user', '--data', dir, '--email', 'MOD@acme.test', '--full-name', 'Again', '--json');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/already in use/);
    const badRole = await cli('create-user', '--data', dir, '--email', 'x@acme.test', '--full-name', 'X', '--role', 'king');
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toMatch(/invalid role/);
    const badFlag = await cli('change-user', '--data', dir, '--email', 'mod@acme.test', '--can-create-users', 'yes');
    expect(badFlag.stderr).toMatch(/true or false/);
    const unknown = await cli('change-user', '--data', dir, '--email', 'nobody@acme.test', '--role', 'member');
    expect(unknown.code).toBe(1);
  });

  it('needs an initialised directory', async () => {
    const result = await cli('create-user', '--data', freshDir(), '--email', 'a@b.test', '--full-name', 'A');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not initialised/);
  });
});

describe('teamchat serve', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
  });

  /** Starts serve; `stderr` is read later (it carries the first start's credentials, stdout the log). */
  function start(dir: string, ...options: string[]): Promise<{ url: string; output: string; stderr: () => string }> {
    child = spawn('node', [CLI, 'serve', '--data', dir, '--port', '0', ...options]);
    let output = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      child!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve({ url: match[1]!, output, stderr: () => stderr });
      });
      child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}${stderr}`)));
    });
  }

  it('creates a realm in an empty directory, serves it, and stops gracefully on SIGTERM', async () => {
    const dir = freshDir();
    const { url, output, stderr } = await start(dir);
    const rc = readFileSync(join(dir, 'zuliprc'), 'utf8');
    const email = /email=(\S+)/.exec(rc)![1]!;
    const key = /key=(\S+)/.exec(rc)![1]!;
    // Printed for the person who started it, on stderr: stdout is the log, and holds no secret.
    await vi.waitFor(() => expect(stderr()).toContain(`[api]\nemail=${email}\nkey=${key}\nsite=${url}`));
    expect(stderr()).toMatch(/password:\s+\S+/);
    expect(output).not.toContain(key);

    const me = await fetch(`${url}/api/v1/users/me`, { headers: { authorization: basic(email, key) } });
    expect(await me.json()).toMatchObject({ result: 'success', email, role: 100 });
    const settings = await (await fetch(`${url}/api/v1/server_settings`)).json();
    expect(settings).toMatchObject({ realm_url: url, service_feature_level: 512 });

    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('serves an initialised directory without creating another owner', async () => {
    const dir = freshDir();
    const owner = await init(dir);
    const { url, output, stderr } = await start(dir);
    expect(output + stderr()).not.toMatch(/Created a new realm/);
    const me = await fetch(`${url}/api/v1/users/me`, { headers: { authorization: basic(owner.email, owner.api_key) } });
    expect(await me.json()).toMatchObject({ user_id: owner.user_id, full_name: 'The Boss' });
  });

  it('--video-call-url configures the built-in video-call provider', async () => {
    const dir = freshDir();
    const owner = await init(dir);
    const { url } = await start(dir, '--video-call-url', 'https://meet.example.com/');
    const created = await fetch(`${url}/api/v1/calls/videoprovider/create`, { method: 'POST', headers: { authorization: basic(owner.email, owner.api_key) } });
    expect((await created.json()).url).toMatch(/^https:\/\/meet\.example\.com\/[0-9a-f]{24}$/);
  });

  it('refuses a --video-call-url that is not an http(s) URL', async () => {
    const result = await cli('serve', '--data', freshDir(), '--port', '0', '--video-call-url', 'ftp://meet.example.com');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("teamchat: --video-call-url: video call base URL 'ftp://meet.example.com' must use http or https\n");
  });

  it('--push-notifier loads the operator\'s notifier module and hands it notifications', async () => {
    const dir = freshDir();
    const owner = await init(dir);
    const other = JSON.parse((await cli('create-user', '--data', dir, '--email', 'mo@acme.test', '--full-name', 'Mo', '--password', 'mo-password', '--json')).stdout);
    const module = join(dir, 'notifier.mjs');
    writeFileSync(
      module,
      `import { appendFileSync } from 'node:fs';
       export default ({ dataDir }) => ({
         notify: (n) => appendFileSync(dataDir + '/pushed.jsonl', JSON.stringify({ userId: n.userId, trigger: n.trigger, content: n.data.content }) + '\\n'),
         remove: () => undefined,
       });`,
    );
    const { url } = await start(dir, '--push-notifier', module);
    const sent = await fetch(`${url}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: basic(other.email, other.api_key), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'direct', to: JSON.stringify([owner.user_id]), content: 'ping' }),
    });
    expect((await sent.json()).result).toBe('success');
    const pushed = join(dir, 'pushed.jsonl');
    for (let i = 0; i < 100 && !existsSync(pushed); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(pushed, 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([{ userId: owner.user_id, trigger: 'private_message', content: 'ping' }]);
  });

  it('refuses a --push-notifier module that exports no notifier', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'empty.mjs'), 'export default 42;');
    const result = await cli('serve', '--data', dir, '--port', '0', '--push-notifier', join(dir, 'empty.mjs'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--push-notifier: .* exports no push notifier/);
    const missing = await cli('serve', '--data', dir, '--port', '0', '--push-notifier', join(dir, 'missing.mjs'));
    expect(missing.stderr).toMatch(/--push-notifier: cannot load/);
  });
});
