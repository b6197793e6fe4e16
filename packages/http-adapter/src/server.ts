import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closeContext, type Ctx, internalError, startBackgroundWork } from '@teamchat/core';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import { type AppOptions, createApp } from './app.js';
import { failure, WRITTEN } from './respond.js';
import { answerExpectation, answerMissingHost, answerUnparsableRequest } from './node-errors.js';
import type { LevelWithSilent, Logger as PinoLogger } from 'pino';
import { createRequestObserver, createServerLogger } from './request-log.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import { listenMetrics, type MetricsListener } from './metrics/listener.js';

/**
 * Connections the kernel may queue before they are accepted. Node's default, 511, is less than
 * the clients of a busy server that reconnect at once (after a restart, or a network blip that
 * drops every long-poll): past it the kernel drops their SYNs and they retry a second later.
 * Linux caps it at net.core.somaxconn (4096 by default since 5.4).
 */
const LISTEN_BACKLOG = 4096;

export interface RunningServer {
  server: Server;
  /** Base URL, for example `http://127.0.0.1:9991`. */
  url: string;
  /** Where `GET /metrics` answers (its own listener), when `metrics` was given. */
  metricsUrl?: string;
  /**
   * Stops accepting connections, lets requests in flight finish, then closes the database.
   * Connections still open `shutdownTimeoutMs` later (a client holding half a request) are
   * destroyed, so closing always ends.
   */
  close(): Promise<void>;
}

export interface ServeOptions extends AppOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** A request's headers must arrive within this many milliseconds, or it is answered 408. Default 20 s. */
  headersTimeoutMs?: number;
  /** A whole request (headers and body, uploads included) must arrive within this. Default 300 s. */
  requestTimeoutMs?: number;
  /** How long close() waits for open connections before destroying them. Default 10 s. */
  shutdownTimeoutMs?: number;
  /**
   * Where each request's line goes (request-log.ts: method, route, status, duration, user, realm,
   * request ID), a pino logger; `createServerLogger` makes one with the server's redaction.
   * Neither this nor `logLevel`: requests are not logged (`ctx.logger` still gets errors).
   */
  logger?: PinoLogger;
  /** Without `logger`: request lines go to a JSON logger on stdout at this level. */
  logLevel?: LevelWithSilent;
  /**
   * Prometheus metrics: `collector` (createServerMetrics; give its `observer` to the context's
   * `metrics` for sends and storage timings) served as `GET /metrics` on a listener of its own,
   * at `host` (default 127.0.0.1) and `port` (0 picks a free one), never on the API's port.
   */
  metrics?: { collector: ServerMetrics; host?: string; port: number };
}

/** Serves the app over node:http. */
export async function serve(ctx: Ctx, options: ServeOptions = {}): Promise<RunningServer> {
  const app = createApp(ctx, options);
  const report = options.onInternalError ?? ((error: unknown) => ctx.logger.error({ err: error }, 'internal error'));
  const headersTimeout = options.headersTimeoutMs ?? 20_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 300_000, headersTimeout);
  const shutdownTimeout = options.shutdownTimeoutMs ?? 10_000;
  const logger = options.logger ?? (options.logLevel === undefined ? undefined : createServerLogger(options.logLevel));
  const observer = createRequestObserver(logger, options.metrics?.collector);
  let running = 0;
  let onIdle: (() => void) | undefined;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // node:http checks those timeouts on this period (30 s by default, longer than the timeouts).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, headersTimeout / 4)),
      // node answers a missing Host with a bare 400; answerMissingHost sends the envelope instead.
      requireHostHeader: false,
    },
    (request: IncomingMessage, response: ServerResponse) => {
      if (answerMissingHost(request, response)) return;
      running += 1;
      const finished = () => {
        running -= 1;
        if (running === 0) onIdle?.();
      };
      // The handler is done (and no longer needs the store) once the app has its answer; writing
      // it is the connection's business. A response whose client is gone never finishes writing,
      // so the write is not waited for.
      let answer: Response | Promise<Response>;
      try {
        const webRequest = new NodeRequest({ req: request, res: response }) as Request;
        observer?.begin(request, response, webRequest);
        answer = app.fetch(webRequest);
      } catch (error) {
        answer = Promise.reject(error);
      }
      void Promise.resolve(answer)
        .catch((error: unknown) => {
          report(error);
          return failure(internalError());
        })
        .then((webResponse) => {
          finished();
          // The handler wrote a success answer itself (respond.ts `writeSuccess`).
          if (webResponse === WRITTEN) return;
          // What can fail here is a write to a client already gone.
          sendNodeResponse(response, webResponse).catch(() => response.destroy());
        });
    },
  );
  server.on('clientError', answerUnparsableRequest);
  server.on('checkExpectation', answerExpectation);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 9991, host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let metricsListener: MetricsListener | undefined;
  if (options.metrics) {
    options.metrics.collector.watch(ctx);
    try {
      metricsListener = await listenMetrics(options.metrics.collector, options.metrics);
    } catch (error) {
      // The API must not run without the metrics it was asked for (nor keep its port).
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw error;
    }
  }
  // Scheduled delivery, the sweeps and the presence flush. Tests that drive time themselves turn timers off.
  const background = ctx.config.timers ? startBackgroundWork(ctx) : undefined;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ...(metricsListener ? { metricsUrl: metricsListener.url } : {}),
    close() {
      closing ??= (async () => {
        let deadline: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // A client holding half a request (or not reading its answer) would hold the close forever.
          deadline = setTimeout(() => {
            for (const socket of sockets) socket.destroy();
          }, shutdownTimeout);
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
        clearTimeout(deadline);
        // Handlers whose connection was destroyed still run to their end (their reads fail fast);
        // the store stays open for them, within the same bound.
        if (running > 0) {
          await new Promise<void>((resolve) => {
            onIdle = resolve;
            setTimeout(resolve, shutdownTimeout).unref();
          });
        }
        await metricsListener?.close();
        await background?.stop();
        // Writes the presence still only in memory, then closes the store.
        await closeContext(ctx);
      })();
      return closing;
    },
  };
}
