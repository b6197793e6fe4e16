/**
 * One log line and one metrics observation per request, made when its response closes. The
 * line holds what an operator needs and nothing a client sent as data: method, route pattern
 * (never the raw URL, whose query may carry credentials), status, duration, user and realm IDs,
 * request ID. Bodies and headers are never logged; `LOG_REDACT_PATHS` guards the rest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import pino, { type DestinationStream, type Level, type LevelWithSilent, type Logger as PinoLogger } from 'pino';
import type { ServerMetrics } from './metrics/server-metrics.js';
import { requestIdOf } from './request-id.js';
import { attachRecord, type RequestRecord } from './request-record.js';
import { API_PREFIX } from './app.js';

/**
 * Fields no log line may show, wherever a caller put them: credentials, cookies, message text.
 * Nothing logs them on purpose; this is the net under a future `{ err }` or bound field.
 */
export const LOG_REDACT_PATHS = [
  'authorization',
  'cookie',
  'password',
  'api_key',
  'apiKey',
  'content',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.api_key',
  '*.apiKey',
  '*.content',
];

/**
 * A pino logger with the server's redaction, JSON to `destination`: by default stdout, written
 * asynchronously (a line per request would otherwise cost a blocking write each; pino flushes
 * what is pending when the process exits). The CLI passes pino-pretty's stream on a terminal.
 */
export function createServerLogger(level: LevelWithSilent = 'info', destination?: DestinationStream): PinoLogger {
  const options = { level, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}

/** Watches each request from arrival to the close of its response. */
export interface RequestObserver {
  begin(request: IncomingMessage, response: ServerResponse, webRequest: Request): void;
}

/** The long-poll route: its GET lines are debug, or a thousand idle clients would fill the log. */
const LONG_POLL_ROUTE = `${API_PREFIX}/events`;
/** Probes a load balancer or supervisor sends every few seconds: debug lines too, unless failing. */
const PROBE_ROUTES = new Set(['/health', '/ready']);

/** error for the server's failures; debug for the lines that come by the thousand; else info. */
function levelOf(method: string, route: string | null, status: number): Level {
  if (status >= 500) return 'error';
  if (route === LONG_POLL_ROUTE && method === 'GET') return 'debug';
  if (route !== null && PROBE_ROUTES.has(route)) return 'debug';
  return 'info';
}

/** Undefined when there is neither a logger nor metrics: then requests cost nothing extra. */
export function createRequestObserver(logger: PinoLogger | undefined, metrics: ServerMetrics | undefined): RequestObserver | undefined {
  if (!logger && !metrics) return undefined;
  return {
    begin(request, response, webRequest) {
      const start = performance.now();
      const record: RequestRecord = { id: '', route: null, userId: null, realmId: null };
      if (logger) {
        record.id = requestIdOf(request.headers['x-request-id']);
        response.setHeader('x-request-id', record.id);
      }
      attachRecord(webRequest, record);
      response.once('close', () => {
        const durationMs = performance.now() - start;
        const method = request.method ?? 'GET';
        metrics?.observeRequest(method, record.route, response.statusCode, durationMs / 1000);
        if (logger) logRequest(logger, method, record, response, durationMs);
      });
    },
  };
}

function logRequest(logger: PinoLogger, method: string, record: RequestRecord, response: ServerResponse, durationMs: number): void {
  const status = response.statusCode;
  const level = levelOf(method, record.route, status);
  if (!logger.isLevelEnabled(level)) return;
  const fields: Record<string, unknown> = {
    requestId: record.id,
    method,
    route: record.route,
    status,
    durationMs: Math.round(durationMs * 10) / 10,
    userId: record.userId,
    realmId: record.realmId,
  };
  // The client went away before its answer was written to the end.
  if (!response.writableFinished) fields.aborted = true;
  logger[level](fields, `${method} ${record.route ?? '(no route)'} ${status}`);
}
