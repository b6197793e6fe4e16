/**
 * `teamchat serve` as a real process: its log (JSON lines on stdout when not a terminal, one per
 * request with the route pattern and no secret, filtered by --log-level / TEAMCHAT_LOG_LEVEL)
 * and its Prometheus metrics (on their own port only, off by default).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_SOURCE, ROOT, type ServeChild, spawnServe } from '../helpers/serve-child.js';

const run = promisify(execFile);
const children: ServeChild[] = [];
afterEach(() => {
  for (const { child } of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

const freshDir = () => join(mkdtempSync(join(tmpdir(), 'teamchat-obs-')), 'data');

async function start(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServeChild & { dir: string; auth: string; email: string; key: string }> {
  const dir = freshDir();
  const served = await spawnServe(['--data', dir, '--port', '0', '--shutdown-timeout', '1', ...args], 'serve', { env });
  children.push(served);
  const rc = readFileSync(join(dir, 'zuliprc'), 'utf8');
  const email = /email=(\S+)/.exec(rc)![1]!;
  const key = /key=(\S+)/.exec(rc)![1]!;
  return { ...served, dir, email, key, auth: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` };
}

type LogLine = Record<string, unknown> & { level: number; msg: string };

/** Every stdout line, parsed: each must be JSON. */
const logLines = (served: ServeChild): LogLine[] =>
  served
    .stdout()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogLine);

/** Waits for the log line `matches` picks, then returns it. */
async function lineFor(served: ServeChild, matches: (line: LogLine) => boolean): Promise<LogLine> {
  let found: LogLine | undefined;
  await expect.poll(() => (found = logLines(served).find(matches)), { timeout: 10_000 }).toBeDefined();
  return found!;
}

/** Runs `teamchat serve` expecting it to refuse: its exit code and stderr. */
async function refused(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ['--import', 'tsx', CLI_SOURCE, 'serve', '--data', freshDir(), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 30_000 });
    return { code: 0, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('teamchat serve logs', () => {
  it('writes JSON lines: a start-up line, then one per request with route, status, duration, user, realm and request ID', { timeout: 60_000 }, async () => {
    const served = await start();
    const startup = logLines(served)[0]!;
    expect(startup).toMatchObject({ level: 30, url: served.url, database: 'sqlite', dataDir: served.dir, version: expect.any(String) });
    expect(startup.msg).toMatch(/^teamchat is listening on /);

    const answer = await fetch(`${served.url}/api/v1/users/me`, { headers: { authorization: served.auth, 'x-request-id': 'trace-42' } });
    expect(answer.headers.get('x-request-id')).toBe('trace-42');
    const me = (await answer.json()) as { user_id: number };
    const line = await lineFor(served, (l) => l.requestId === 'trace-42');
    expect(line).toMatchObject({ level: 30, method: 'GET', route: '/api/v1/users/me', status: 200, userId: me.user_id, realmId: 1, msg: 'GET /api/v1/users/me 200' });
    expect(line.durationMs).toBeGreaterThanOrEqual(0);

    // A path with an ID is logged by its pattern; an unsafe request ID is replaced by a fresh one.
    const message = await fetch(`${served.url}/api/v1/messages/12345`, { headers: { authorization: served.auth, 'x-request-id': 'bad id\twith spaces' } });
    const generated = message.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(await lineFor(served, (l) => l.requestId === generated)).toMatchObject({ route: '/api/v1/messages/{message_id}', status: 400 });

    // No route matched: the raw path is not logged either.
    const missing = await fetch(`${served.url}/no/such/path?api_key=zzz`);
    expect(await lineFor(served, (l) => l.requestId === missing.headers.get('x-request-id'))).toMatchObject({ route: null, status: 404, userId: null });
    expect(served.stdout()).not.toContain('/no/such/path');

    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    const messages = logLines(served).map((l) => l.msg);
    expect(messages).toContain('SIGTERM: finishing requests in flight and closing the database');
    expect(messages.at(-1)).toBe('teamchat stopped');
  });

  it('never logs an API key, a password, an Authorization header or message content', { timeout: 60_000 }, async () => {
    const served = await start();
    const post = (path: string, body: Record<string, string>, auth = true) =>
      fetch(`${served.url}/api/v1${path}`, { method: 'POST', headers: auth ? { authorization: served.auth } : {}, body: new URLSearchParams(body) });
    const password = 'correct-horse-battery-staple';
    const content = 'the launch code is zebra-fandango';
    expect((await post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'ops' }]) })).status).toBe(200);
    expect((await post('/messages', { type: 'stream', to: 'ops', topic: 'secrets', content })).status).toBe(200);
    expect((await post('/fetch_api_key', { username: served.email, password }, false)).status).toBe(401);
    // The key in the query string too (clients may send credentials there).
    await fetch(`${served.url}/api/v1/users/me?api_key=${served.key}`, { headers: { authorization: served.auth } });
    await lineFor(served, (l) => l.route === '/api/v1/fetch_api_key');
    await lineFor(served, (l) => l.route === '/api/v1/messages' && l.status === 200);
    await expect.poll(() => logLines(served).filter((l) => l.route === '/api/v1/users/me').length).toBe(1);

    const log = served.stdout();
    const encoded = served.auth.split(' ')[1]!;
    for (const secret of [served.key, password, encoded, 'zebra-fandango', 'launch code']) expect(log).not.toContain(secret);
    expect(log.toLowerCase()).not.toContain('authorization');
  });

  it('filters by --log-level: warn drops request lines but keeps start-up; debug adds long-poll and probe lines', { timeout: 90_000 }, async () => {
    const quiet = await start(['--log-level', 'warn']);
    await fetch(`${quiet.url}/api/v1/server_settings`);
    await fetch(`${quiet.url}/health`);
    quiet.child.kill('SIGTERM');
    await quiet.exited;
    expect(logLines(quiet).map((l) => l.msg)).toEqual([
      expect.stringMatching(/^teamchat is listening on /),
      'SIGTERM: finishing requests in flight and closing the database',
      'teamchat stopped',
    ]);

    const poll = async (served: ServeChild & { auth: string }) => {
      const registered = (await (
        await fetch(`${served.url}/api/v1/register`, { method: 'POST', headers: { authorization: served.auth }, body: new URLSearchParams({ event_types: '["message"]' }) })
      ).json()) as { queue_id: string };
      const events = await fetch(`${served.url}/api/v1/events?queue_id=${registered.queue_id}&dont_block=true`, { headers: { authorization: served.auth } });
      return events.headers.get('x-request-id')!;
    };
    // At info (the default), long-polls are not logged; at debug (here from the environment) they are.
    const normal = await start();
    const hidden = await poll(normal);
    await lineFor(normal, (l) => l.route === '/api/v1/register');
    expect(logLines(normal).some((l) => l.requestId === hidden)).toBe(false);

    // Probes likewise.
    const probe = (await fetch(`${normal.url}/health`)).headers.get('x-request-id');
    // A request logged after it: once its line is there, the probe's would be too.
    const after = (await fetch(`${normal.url}/api/v1/server_settings`)).headers.get('x-request-id');
    await lineFor(normal, (l) => l.requestId === after);
    expect(logLines(normal).some((l) => l.requestId === probe)).toBe(false);

    const verbose = await start([], { TEAMCHAT_LOG_LEVEL: 'debug' });
    const shown = await poll(verbose);
    expect(await lineFor(verbose, (l) => l.requestId === shown)).toMatchObject({ level: 20, route: '/api/v1/events', status: 200 });
    const probed = (await fetch(`${verbose.url}/ready`)).headers.get('x-request-id');
    expect(await lineFor(verbose, (l) => l.requestId === probed)).toMatchObject({ level: 20, route: '/ready', status: 200 });
  });

  it('writes readable lines, not JSON, when stdout is a terminal', { timeout: 60_000 }, async () => {
    // util-linux's `script` runs the server on a pseudo-terminal and copies what it prints.
    const command = `${process.execPath} --import tsx ${CLI_SOURCE} serve --data ${freshDir()} --port 0`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ /);
      const line = output.split(/\r?\n/).find((l) => l.includes('listening on'))!;
      expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*teamchat is listening on/);
      expect(line).toContain('"database":"sqlite"');
      expect(output).not.toMatch(/^\{"level"/m);
    } finally {
      // The terminal's end hangs up the server (SIGHUP) along with `script`.
      child.kill('SIGKILL');
    }
  });

  it('refuses an unknown level, from the flag or the environment', async () => {
    const flag = await refused(['--log-level', 'loud']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/--log-level takes one of trace, debug, info, warn, error, fatal, silent, not 'loud'/);
    const env = await refused([], { TEAMCHAT_LOG_LEVEL: 'chatty' });
    expect(env.stderr).toMatch(/TEAMCHAT_LOG_LEVEL takes one of .*not 'chatty'/);
  });
});

/** Prometheus text: every sample line well formed and declared; series name (with labels) to value. */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const declared = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\w+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      declared.add(type[1]!);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    expect(sample, line).not.toBeNull();
    const name = sample![1]!;
    expect([...declared].some((d) => name === d || name.startsWith(`${d}_`)), `${name} has a # TYPE`).toBe(true);
    samples.set(name + (sample![2] ?? ''), Number(sample![3]));
  }
  return samples;
}

describe('teamchat serve metrics', () => {
  it('serves GET /metrics on the metrics port only, and its counters move with requests and sends', { timeout: 60_000 }, async () => {
    const served = await start(['--metrics-port', '0']);
    const metricsUrl = logLines(served)[0]!.metricsUrl as string;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(metricsUrl.startsWith(`${served.url}/`)).toBe(false);
    // Not on the API's port.
    expect((await fetch(`${served.url}/metrics`)).status).toBe(404);

    const scrape = async () => {
      const answer = await fetch(metricsUrl);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return parseMetrics(await answer.text());
    };
    const before = await scrape();
    expect(before.get('teamchat_messages_sent_total{type="stream"}')).toBe(0);
    for (const name of ['teamchat_event_queues', 'teamchat_long_polls_waiting', 'teamchat_database_size_bytes', 'process_cpu_seconds_total']) {
      expect(before.has(name), name).toBe(true);
    }
    expect(before.get('teamchat_database_size_bytes')).toBeGreaterThan(0);
    expect(before.get('teamchat_scheduler_backlog{kind="scheduled_message"}')).toBe(0);

    const post = (path: string, body: Record<string, string>) =>
      fetch(`${served.url}/api/v1${path}`, { method: 'POST', headers: { authorization: served.auth }, body: new URLSearchParams(body) });
    expect((await post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'ops' }]) })).status).toBe(200);
    expect((await post('/messages', { type: 'stream', to: 'ops', topic: 't', content: 'hi' })).status).toBe(200);
    await post('/register', { event_types: '["message"]' });

    const after = await scrape();
    expect(after.get('teamchat_messages_sent_total{type="stream"}')).toBe(1);
    expect(after.get('teamchat_http_requests_total{method="POST",route="/api/v1/messages",status="200"}')).toBe(1);
    expect(after.get('teamchat_http_request_duration_seconds_count{method="POST",route="/api/v1/messages"}')).toBe(1);
    expect(after.get('teamchat_event_queues')).toBe(1);
    expect(after.get('teamchat_storage_commit_duration_seconds_count')!).toBeGreaterThan(before.get('teamchat_storage_commit_duration_seconds_count')!);
    expect(after.get('teamchat_storage_transaction_duration_seconds_count')!).toBeGreaterThan(0);

    // Only GET (and HEAD) /metrics answer there.
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it('is off by default: no metrics listener, and /metrics is not on the API', { timeout: 60_000 }, async () => {
    const served = await start();
    expect(logLines(served)[0]!.metricsUrl).toBeUndefined();
    expect((await fetch(`${served.url}/metrics`)).status).toBe(404);
  });

  it('refuses bad metrics options, and the API port given as the metrics port', { timeout: 60_000 }, async () => {
    expect((await refused(['--metrics-host', '127.0.0.1'])).stderr).toMatch(/--metrics-host needs --metrics-port/);
    expect((await refused(['--metrics-port', 'ninety'])).stderr).toMatch(/--metrics-port takes a whole number from 0 to 65535, not 'ninety'/);
    expect((await refused(['--metrics-port', '70000'])).stderr).toMatch(/--metrics-port takes a whole number from 0 to 65535, not '70000'/);
    const port = await freePort();
    const same = await refused(['--port', String(port), '--metrics-port', String(port)]);
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/cannot listen: .*EADDRINUSE/);
  });
});
