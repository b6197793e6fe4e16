import { createServer, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, type Ctx, flushPresence, startPresenceFlush, startRetentionSweeps, startScheduledDelivery, startUploadSweep } from '@teamchat/core';
import { toNodeHandler } from 'h3';
import { type AppOptions, createApp } from './app.js';
import { errorPayload } from './respond.js';

export interface RunningServer {
  server: Server;
  /** Base URL, for example `http://127.0.0.1:9991`. */
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

export interface ServeOptions extends AppOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

/** Serves the app over node:http. */
export async function serve(ctx: Ctx, options: ServeOptions = {}): Promise<RunningServer> {
  const app = createApp(ctx, options);
  const server = createServer(toNodeHandler(app));
  server.on('clientError', answerUnparsableRequest);
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 9991, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // Scheduled messages are delivered while the server runs (and those that fell due while it
  // was down, at once). Tests that drive time themselves turn timers off.
  const scheduler = ctx.config.timers ? startScheduledDelivery(ctx) : undefined;
  // Uploads no message uses are deleted after the grace period (API.md 4.20).
  const uploadSweep = ctx.config.timers ? startUploadSweep(ctx) : undefined;
  // Expired messages (channel retention policies) are deleted at start and then daily.
  const retention = ctx.config.timers ? startRetentionSweeps(ctx) : undefined;
  // Presence reports live in memory; this writes them to the store in batches (and once more at close).
  const presenceFlush = ctx.config.timers ? startPresenceFlush(ctx) : undefined;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Waiting long-polls are answered now rather than holding the shutdown for a heartbeat.
          ctx.queues.shutdown();
          server.closeIdleConnections();
          // A keep-alive connection whose request is still running would otherwise stay open
          // after its response, until the client or the keep-alive timeout ends it.
          for (const response of inFlight) {
            if (!response.headersSent) response.setHeader('connection', 'close');
            else response.once('finish', () => response.socket?.end());
          }
        });
        scheduler?.stop();
        retention?.stop();
        await scheduler?.idle();
        uploadSweep?.stop();
        await uploadSweep?.idle();
        await retention?.idle();
        presenceFlush?.stop();
        await presenceFlush?.idle();
        // Whether or not the timer ran: what is still only in memory is written before the store closes.
        try {
          await flushPresence(ctx);
        } finally {
          await ctx.storage.close();
        }
      })();
      return closing;
    },
  };
}

/** Node's own rejections (by status) of requests it could not parse, as API error envelopes. */
const PARSE_FAILURES: Record<number, string> = {
  400: 'Malformed HTTP request',
  408: 'Request timeout',
  431: 'Request header fields too large',
};

/**
 * node:http answers a request it cannot parse (bad request line, oversized headers, …) with a
 * bare status line. Clients expect the JSON envelope on every response, so write it here.
 */
function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const payload = errorPayload(new ApiError('BAD_REQUEST', PARSE_FAILURES[status]!, {}, status));
  const headers = { ...payload.headers, 'content-length': String(Buffer.byteLength(payload.body)), connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${payload.body}`);
}
