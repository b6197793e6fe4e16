/**
 * The HTTP adapter's request log and metrics, in process: `serve({ logger })` writes a line per
 * request through the pino logger given, an unexpected exception is logged with its stack and
 * the request's ID, and `serve({ metrics })` answers GET /metrics on its own listener only.
 */
import { Writable } from 'node:stream';
import { createServerLogger, createServerMetrics } from '@teamchat/http-adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { authOf, closeServers, startServer } from '../helpers/http.js';

afterEach(closeServers);

/** A logger at `level` whose lines are kept, parsed. */
function capturedLogger(level: 'info' | 'debug' = 'info') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createServerLogger(level, sink), lines };
}

describe('request log', () => {
  it('logs an unexpected exception with its stack and the request ID, and the request line as an error', async () => {
    const { logger, lines } = capturedLogger();
    const w = await makeWorld({ logger });
    const server = await startServer(w, { logger, onInternalError: undefined });
    // The store fails under the request: nothing the client did.
    w.ctx.storage.read = () => Promise.reject(new Error('disk on fire'));
    const answer = await fetch(server.api('/users/me'), { headers: { authorization: authOf(w.owner), 'x-request-id': 'req-500' } });
    expect(answer.status).toBe(500);
    await expect.poll(() => lines.find((l) => l.requestId === 'req-500' && l.status === 500)).toMatchObject({ level: 50, route: '/api/v1/users/me' });
    const failure = lines.find((l) => l.msg === 'internal error');
    expect((failure?.err as { stack?: string } | undefined)?.stack).toMatch(/^Error: disk on fire\n\s+at /);
    expect(failure).toMatchObject({ level: 50, requestId: 'req-500', err: { type: 'Error', message: 'disk on fire' } });
  });

  it('redacts credentials and content in any field a caller logs, at any depth given', async () => {
    const { logger, lines } = capturedLogger();
    logger.info({ password: 'p', api_key: 'k', content: 'c', headers: { authorization: 'Basic x', cookie: 'y' }, user: { apiKey: 'z' } }, 'careless');
    expect(lines[0]).toMatchObject({
      password: '[redacted]',
      api_key: '[redacted]',
      content: '[redacted]',
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
      user: { apiKey: '[redacted]' },
    });
  });

  it('logs nothing per request without a logger (embedders opt in)', async () => {
    const { logger, lines } = capturedLogger();
    const w = await makeWorld({ logger });
    const server = await startServer(w);
    const answer = await fetch(server.api('/users/me'), { headers: { authorization: authOf(w.owner) } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBeNull();
    expect(lines).toEqual([]);
  });
});

describe('serve({ metrics })', () => {
  it('answers GET /metrics on its own listener, closed with the server, and counts requests by route', async () => {
    const collector = createServerMetrics({ processMetrics: false, databaseSizeBytes: () => 1234 });
    const w = await makeWorld({ metrics: collector.observer });
    const server = await startServer(w, { metrics: { collector, port: 0 } });
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    await fetch(server.api('/users/me'), { headers: { authorization: authOf(w.owner) } });
    await fetch(`${server.url}/user_uploads/1/ab/cd/file.txt`);
    const text = await (await fetch(server.metricsUrl!)).text();
    expect(text).toContain('teamchat_http_requests_total{method="GET",route="/api/v1/users/me",status="200"} 1');
    expect(text).toContain('route="/user_uploads/{realm_id}/{+filename}"');
    expect(text).toContain('teamchat_database_size_bytes 1234');
    expect(text).not.toContain('process_cpu_seconds_total');
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const head = await fetch(server.metricsUrl!, { method: 'HEAD' });
    expect(head.status).toBe(200);
    await closeServers();
    await expect(fetch(server.metricsUrl!)).rejects.toThrow();
  });

  it('does not start when the metrics port is taken', async () => {
    const first = await startServer(undefined, { metrics: { collector: createServerMetrics({ processMetrics: false }), port: 0 } });
    const taken = Number(new URL(first.metricsUrl!).port);
    const w = await makeWorld();
    await expect(startServer(w, { metrics: { collector: createServerMetrics({ processMetrics: false }), port: taken } })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
