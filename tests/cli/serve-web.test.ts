/**
 * `teamchat serve` and the web client: `--web-dir` names the built client, `--no-web` turns it
 * off (the API's 404 at `/`), the default finds the @teamchat/web package's build or says how to
 * make it, and the two options together are refused.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_SOURCE, ROOT, spawnServe } from '../helpers/serve-child.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

const dataDir = () => join(mkdtempSync(join(tmpdir(), 'teamchat-serve-web-')), 'data');

async function serveWith(...args: string[]) {
  const served = await spawnServe(['--data', dataDir(), '--port', '0', '--shutdown-timeout', '1', ...args]);
  children.push(served.child);
  return served;
}

describe('teamchat serve and the web client', () => {
  it('--web-dir serves that directory at /', { timeout: 90_000 }, async () => {
    const dist = mkdtempSync(join(tmpdir(), 'teamchat-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>client</title>');
    writeFileSync(join(dist, 'assets/app-1.js'), 'export {};');
    const served = await serveWith('--web-dir', dist);
    expect(served.output()).toContain(`web client: ${dist}`);
    const index = await fetch(`${served.url}/`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toBe('<!doctype html><title>client</title>');
    const asset = await fetch(`${served.url}/assets/app-1.js`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${served.url}/api/v1/server_settings`)).headers.get('content-type')).toBe('application/json');
  });

  it('--no-web answers / with the API’s 404; the default answers it with HTML (the client, or how to build it)', { timeout: 90_000 }, async () => {
    const off = await serveWith('--no-web');
    expect(off.output()).toContain('web client: disabled (--no-web)');
    const refused = await fetch(`${off.url}/`);
    expect(refused.status).toBe(404);
    expect((await refused.json()).code).toBe('NOT_FOUND');

    const byDefault = await serveWith();
    expect(byDefault.output()).toMatch(/web client: (\/\S+web\/dist|not built)/);
    const page = await fetch(`${byDefault.url}/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await page.text();
  });

  it('refuses --web-dir with --no-web', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', CLI_SOURCE, 'serve', '--data', dataDir(), '--no-web', '--web-dir', '/tmp'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('teamchat: --web-dir and --no-web exclude each other\n');
  });
});
