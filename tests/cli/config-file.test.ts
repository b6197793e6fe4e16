/**
 * serve's config file (teamchat.toml / teamchat.json in the data directory, or --config FILE):
 * each precedence level (flag > TEAMCHAT_* variable > file > default), and start-up refused with
 * a message naming the file and key for an unknown key, a wrong type, a bad value and a
 * malformed file. Through the built CLI and a real server process.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVE_OPTIONS } from '../../packages/cli/src/commands/serve.js';

const CLI = join(import.meta.dirname, '../../packages/cli/dist/cli.js');
const run = promisify(execFile);
const freshDir = () => mkdtempSync(join(tmpdir(), 'teamchat-config-'));

/** No TEAMCHAT_* variable of the test's own environment reaches the server unless a test sets it. */
const cleanEnv = (env: Record<string, string>) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TEAMCHAT_'))),
  ...env,
});

let children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children = [];
});

/** Starts serve, and answers the realm URL it serves (its server_settings) and where it listened; then stops it. */
async function served(args: string[], env: Record<string, string> = {}): Promise<{ listening: string; realmUrl: string }> {
  const child = spawn('node', [CLI, 'serve', ...args], { env: cleanEnv(env) });
  children.push(child);
  let output = '';
  const listening = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  const settings = (await (await fetch(`${listening}/api/v1/server_settings`)).json()) as { realm_url: string };
  // Stopped before the next start: a data directory is served by one process at a time.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { listening, realmUrl: settings.realm_url };
}

async function refused(args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await run('node', [CLI, 'serve', ...args], { env: cleanEnv(env) }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result.stderr;
}

describe('precedence: flag > environment > file > default', () => {
  it('takes the default without a file, the file over the default, the variable over the file, the flag over the variable', { timeout: 90_000 }, async () => {
    const dir = freshDir();
    const port = ['--port', '0'];
    const byDefault = await served(['--data', dir, ...port]);
    expect(byDefault.realmUrl).toBe(byDefault.listening);

    writeFileSync(join(dir, 'teamchat.toml'), '# the public address\nurl = "https://from-file.example.com"\nport = 0\nshutdown-timeout = 2.5\n');
    // port comes from the file too: no --port here, and it does not listen on 9991.
    const fromFile = await served(['--data', dir]);
    expect(fromFile.realmUrl).toBe('https://from-file.example.com');
    expect(fromFile.listening).not.toMatch(/:9991$/);

    const fromEnv = await served(['--data', dir], { TEAMCHAT_URL: 'https://from-env.example.com' });
    expect(fromEnv.realmUrl).toBe('https://from-env.example.com');

    const fromFlag = await served(['--data', dir, '--url', 'https://from-flag.example.com'], { TEAMCHAT_URL: 'https://from-env.example.com' });
    expect(fromFlag.realmUrl).toBe('https://from-flag.example.com');
  });

  it('reads a JSON file named by --config or TEAMCHAT_CONFIG, which may also name the data directory', { timeout: 60_000 }, async () => {
    const dir = freshDir();
    const config = join(freshDir(), 'teamchat.json');
    writeFileSync(config, JSON.stringify({ data: dir, port: 0, url: 'https://json.example.com' }));
    expect((await served(['--config', config])).realmUrl).toBe('https://json.example.com');
    expect((await served([], { TEAMCHAT_CONFIG: config, TEAMCHAT_URL: 'https://env.example.com' })).realmUrl).toBe('https://env.example.com');
  });
});

describe('a bad config file stops start-up', () => {
  const withFile = (name: string, text: string) => {
    const dir = freshDir();
    writeFileSync(join(dir, name), text);
    return { dir, path: join(dir, name) };
  };

  it('names an unknown key and the file', async () => {
    const { dir, path } = withFile('teamchat.toml', 'prot = 9991\n');
    expect(await refused(['--data', dir])).toBe(`teamchat: ${path}: unknown key 'prot' (the keys are ${Object.keys(SERVE_OPTIONS).join(', ')})\n`);
  });

  it('names a key of the wrong type', async () => {
    const toml = withFile('teamchat.toml', 'port = "9991"\n');
    expect(await refused(['--data', toml.dir])).toBe(`teamchat: ${toml.path}: 'port' must be a number, not a string\n`);
    const json = withFile('teamchat.json', '{ "host": 127 }');
    expect(await refused(['--data', json.dir])).toBe(`teamchat: ${json.path}: 'host' must be a string, not a number\n`);
    const table = withFile('teamchat.toml', '[url]\nhost = "x"\n');
    expect(await refused(['--data', table.dir])).toMatch(/'url' must be a string, not a table/);
  });

  it('names a value the option refuses', async () => {
    const { dir, path } = withFile('teamchat.toml', 'port = 70000\n');
    expect(await refused(['--data', dir])).toBe(`teamchat: ${path}: port takes a whole number from 0 to 65535, not '70000'\n`);
    const database = withFile('teamchat.toml', 'database = "mysql://x/y"\n');
    expect(await refused(['--data', database.dir])).toMatch(/: database takes a postgres:\/\/ URL, not 'mysql:\/\/x\/y'/);
  });

  it('names a malformed file with the place of the error', async () => {
    const toml = withFile('teamchat.toml', 'port = 1\nurl = \n');
    expect(await refused(['--data', toml.dir])).toMatch(new RegExp(`^teamchat: ${toml.path}: not valid TOML: .*\\(line 2, column \\d+\\)\\n$`));
    const json = withFile('teamchat.json', '{ "port": 1, }');
    expect(await refused(['--data', json.dir])).toMatch(new RegExp(`^teamchat: ${json.path}: not valid JSON: `));
    const list = withFile('teamchat.json', '[1, 2]');
    expect(await refused(['--data', list.dir])).toMatch(/must hold a table of keys/);
  });

  it('refuses two files, a missing --config file, and a data directory set from inside itself', async () => {
    const both = withFile('teamchat.toml', 'port = 0\n');
    writeFileSync(join(both.dir, 'teamchat.json'), '{}');
    expect(await refused(['--data', both.dir])).toMatch(/has both teamchat\.toml and teamchat\.json/);
    expect(await refused(['--config', join(both.dir, 'missing.toml')])).toMatch(/missing\.toml: cannot read the config file/);
    const inside = withFile('teamchat.toml', 'data = "/elsewhere"\n');
    expect(await refused(['--data', inside.dir])).toMatch(/'data' cannot be set in a file inside the data directory/);
  });

  it('names a bad environment variable', async () => {
    expect(await refused(['--data', freshDir()], { TEAMCHAT_PORT: 'high' })).toBe("teamchat: TEAMCHAT_PORT takes a whole number from 0 to 65535, not 'high'\n");
  });
});
