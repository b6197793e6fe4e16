/** serve(): ephemeral port, graceful close (in-flight requests finish, then the database closes). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Storage } from '@teamchat/core';
import { createSqliteStorage } from '@teamchat/core/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

/** A storage whose reads wait at a gate while it is armed, to hold a request in flight. */
function gatedStorage() {
  const inner = createSqliteStorage();
  let armed = false;
  let reached!: () => void;
  let open!: () => void;
  const entered = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (open = resolve));
  const storage: Storage = {
    ...inner,
    async read(fn) {
      if (armed) {
        armed = false;
        reached();
        await released;
      }
      return inner.read(fn);
    },
  };
  return { storage, arm: () => (armed = true), entered, release: () => open() };
}

const settle = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => 'done' as const), new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

describe('serve', () => {
  it('listens with a backlog for a crowd reconnecting at once (4096, as far as the kernel allows), not the 511 of node by default', async () => {
    const server = await startServer();
    const port = new URL(server.url).port;
    // For a listening socket, `ss` shows the accept queue's bound in the Send-Q column.
    const [line] = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim().split('\n');
    const backlog = Number(line?.trim().split(/\s+/)[2]);
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(backlog).toBe(Math.min(4096, somaxconn));
  });

  it('listens on an ephemeral port and reports its URL', async () => {
    const server = await startServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(server.url).port)).toBeGreaterThan(0);
    expectSuccess(await call(server, 'GET', '/server_settings'));
  });

  it('close() lets a request in flight finish, refuses new connections, then closes the database', async () => {
    const gate = gatedStorage();
    const world = await makeWorld({ storage: gate.storage });
    const server = await startServer(world);
    expectSuccess(await call(server, 'GET', '/server_settings')); // leaves an idle keep-alive connection

    gate.arm();
    const inFlight = call(server, 'GET', '/users/me', { auth: world.owner });
    await gate.entered;
    const started = Date.now();
    const closing = server.close();

    expect(await settle(closing, 100)).toBe('pending');
    await expect(fetch(`${server.url}/api/v1/server_settings`)).rejects.toThrow();

    gate.release();
    const response = await inFlight;
    expect(expectSuccess(response).user_id).toBe(world.owner.id);
    await closing;
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(world.ctx.storage.read(async () => 1)).rejects.toThrow(/close/i);
    await server.close(); // idempotent
  });

  it('close() is prompt after an oversized body the server did not read', async () => {
    const server = await startServer(await makeWorld({ config: { maxRequestBodyBytes: 1000 } }));
    const response = await call(server, 'POST', '/fetch_api_key', { body: form({ padding: 'x'.repeat(2_000_000) }) });
    expect(response.status).toBe(413);
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
