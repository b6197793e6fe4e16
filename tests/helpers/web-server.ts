/**
 * A real `teamchat serve` process serving the built web client, on a temporary data directory
 * made with the CLI (`init`, `create-user`), for the browser tests and the screenshot script.
 * `api` calls the server as one of its users, to set up what a test needs without a browser.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_SOURCE, ROOT, type ServeChild, spawnServe } from './serve-child.js';

const run = promisify(execFile);

/** Where `npx -y pnpm@10 run build` writes the client. */
export const WEB_DIST = join(ROOT, 'packages/web/dist');

export interface WebUser {
  id: number;
  email: string;
  fullName: string;
  password: string;
  apiKey: string;
}

export interface WebServer {
  url: string;
  serve: ServeChild;
  /** The realm's owner first, then the users asked for, in their order. */
  users: WebUser[];
  /** Calls `/api/v1<path>` as `user`; form-encodes `params`; resolves the success body, rejects on an error answer. */
  api(user: WebUser, method: string, path: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export interface NewUser {
  email: string;
  fullName: string;
  password?: string;
}

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI_SOURCE, ...args], { cwd: ROOT });
  return stdout;
}

/**
 * Makes a realm (owner `owner`), creates `others`, and starts `teamchat serve` on a free port
 * with the built client. Fails, rather than skips, when the client is not built.
 */
export async function startWebServer(owner: NewUser, others: readonly NewUser[] = []): Promise<WebServer> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(`no built web client in ${WEB_DIST}: run \`npx -y pnpm@10 run build\` first`);
  }
  const base = mkdtempSync(join(tmpdir(), 'teamchat-web-e2e-'));
  const data = join(base, 'data');
  const users: WebUser[] = [];
  const withPassword = (user: NewUser) => ({ ...user, password: user.password ?? `${user.email.split('@')[0]}-password-1` });
  const first = withPassword(owner);
  const made = JSON.parse(
    await cli('init', '--data', data, '--realm-name', 'Acme', '--email', first.email, '--password', first.password, '--full-name', first.fullName, '--json'),
  ) as { user_id: number; api_key: string };
  users.push({ ...first, id: made.user_id, apiKey: made.api_key });
  for (const other of others.map(withPassword)) {
    const created = JSON.parse(
      await cli('create-user', '--data', data, '--email', other.email, '--full-name', other.fullName, '--password', other.password, '--json'),
    ) as { user_id: number; api_key: string };
    users.push({ ...other, id: created.user_id, apiKey: created.api_key });
  }
  const serve = await spawnServe(['--data', data, '--port', '0', '--shutdown-timeout', '1', '--web-dir', WEB_DIST], 'web server');
  const api: WebServer['api'] = async (user, method, path, params = {}) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) body.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    const query = method === 'GET' ? `?${body}` : '';
    const response = await fetch(`${serve.url}/api/v1${path}${query}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}` },
      body: method === 'GET' ? undefined : body,
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (answer.result !== 'success') throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  return {
    url: serve.url,
    serve,
    users,
    api,
    async stop() {
      if (serve.child.exitCode === null) {
        serve.child.kill('SIGTERM');
        await serve.exited;
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Uploads `content` as `fileName` for `user`; the upload's URL, to link in a message. */
export async function uploadFile(server: WebServer, user: WebUser, fileName: string, content: Blob): Promise<string> {
  const form = new FormData();
  form.append('file', content, fileName);
  const response = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}` },
    body: form,
  });
  const answer = (await response.json()) as { result: string; url: string };
  if (answer.result !== 'success') throw new Error(`upload: ${JSON.stringify(answer)}`);
  return answer.url;
}
