/**
 * GET /health and GET /ready: unauthenticated probes outside /api/v1, through `app.fetch` and a
 * real server. /ready answers 503 when the database does not answer or its schema is not the
 * one this build migrates to.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeContext, createContext } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { createApp } from '@teamchat/http-adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { openRaw } from '../contract/core-deps.js';
import { makeWorld } from '../helpers/core.js';
import { closeServers, startServer } from '../helpers/http.js';

afterEach(closeServers);

const probe = (app: { fetch(request: Request): Response | Promise<Response> }, method: string, path: string) =>
  Promise.resolve(app.fetch(new Request(`http://chat.example.com${path}`, { method })));

describe('GET /health and GET /ready', () => {
  it('answer 200 without credentials on a real server', async () => {
    const server = await startServer();
    for (const path of ['/health', '/ready']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ status: 'ok' });
    }
    // Not under the API prefix: there the API's 404 envelope answers.
    const prefixed = await fetch(`${server.url}/api/v1/health`);
    expect(prefixed.status).toBe(404);
  });

  it('answer HEAD without a body and other methods with 405 and allow', async () => {
    const app = createApp((await makeWorld()).ctx);
    const head = await probe(app, 'HEAD', '/ready');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'DELETE']) {
      const refused = await probe(app, method, '/health');
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET, HEAD');
      expect(await refused.json()).toEqual({ status: 'error', reason: 'method not allowed' });
    }
  });

  it('/ready answers 503 once the database is closed, while /health still answers 200', async () => {
    const { ctx } = await makeWorld();
    const app = createApp(ctx);
    expect((await probe(app, 'GET', '/ready')).status).toBe(200);
    await closeContext(ctx);
    const ready = await probe(app, 'GET', '/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
    expect((await probe(app, 'GET', '/health')).status).toBe(200);
  });

  it('/ready answers 503 when the schema is not at this build\'s version', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'teamchat-ready-')), 'teamchat.db');
    const ctx = createContext({ storage: createSqliteStorage({ filename: file }) });
    const app = createApp(ctx);
    expect((await probe(app, 'GET', '/ready')).status).toBe(200);
    const raw = openRaw(file);
    const latest = raw.pragma('user_version', { simple: true }) as number;
    // As another process running a different build would leave it.
    raw.pragma(`user_version = ${latest - 1}`);
    const behind = await probe(app, 'GET', '/ready');
    expect(behind.status).toBe(503);
    expect(await behind.json()).toEqual({ status: 'unavailable', reason: `database schema at version ${latest - 1}, this server needs ${latest}` });
    raw.pragma(`user_version = ${latest}`);
    raw.close();
    expect((await probe(app, 'GET', '/ready')).status).toBe(200);
    await closeContext(ctx);
  });
});
