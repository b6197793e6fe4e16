import { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, type Caller, checkCaller, checkRateLimit, type Ctx, internalError, methodNotAllowed, notFound } from '@teamchat/core';
import { extend } from '@teamchat/core/internal';
import { H3, type H3Event, HTTPError } from 'h3';
import { identify } from './auth.js';
import { hasBody, ignoredParameters, queryParams, readParams, setParam, tooLargeByHeader } from './params.js';
import { startStreamedForm } from './streamed-form.js';
import { failure, fastResponse, success, successEnvelope, WRITTEN, writeSuccess } from './respond.js';
import { serveFile, serveRedirect } from './files.js';
import { answerAtQueueOwner } from './forward.js';
import { addHealthRoutes } from './health.js';
import { rateLimitHeaders, withHeaders } from './rate-limit-headers.js';
import { createWebClientHandler } from './web-client.js';
import { type AnyOperation, FILE_ROUTES, type Method, REDIRECT_ROUTES, ROUTES, type Route } from './routes.js';
import { noteRoute, recordOf } from './request-record.js';

export const API_PREFIX = '/api/v1';

/** The largest body read for a caller without credentials: ample for any form such callers send. */
const ANONYMOUS_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  /**
   * Called with unexpected exceptions of the transport (they reach the client only as a 500
   * without details); `ctx.logger` when absent. Operations report their own to `ctx.logger`.
   */
  onInternalError?: (error: unknown, request?: Request) => void;
  /**
   * A buffered request body (every route but file uploads) must arrive within this many
   * milliseconds, or the request is answered 408. Default 60 s.
   */
  bodyReadTimeoutMs?: number;
  /**
   * A directory holding a built web client (index.html, assets/): served at `/`, below every
   * API, probe and file route. Without it, paths outside those routes answer the API's 404.
   */
  webRoot?: string;
}

/** The HTTP application: an h3 app serving the route table under /api/v1. */
export function createApp(ctx: Ctx, options: AppOptions = {}): H3 {
  const report =
    options.onInternalError ??
    ((error: unknown, request?: Request) => ctx.logger.error({ err: error, requestId: (request && recordOf(request)?.id) || undefined }, 'internal error'));
  const bodyReadTimeoutMs = options.bodyReadTimeoutMs ?? 60_000;
  const app = new H3({
    onError: (error) => {
      // h3 rejects some requests itself before routing (a path that is not valid percent-encoding):
      // those are the client's fault, so they get a 4xx envelope rather than a 500.
      if (HTTPError.isError(error) && error.status >= 400 && error.status < 500) {
        return failure(badRequest('Malformed URL'));
      }
      report(error);
      return failure(internalError());
    },
  });
  const answerInternalError = (request: Request) => (error: unknown) => {
    report(error, request);
    return failure(internalError());
  };
  // Each handler notes its route table pattern first: the request's log line and metrics name
  // the route, never the raw URL.
  for (const route of ROUTES) {
    const pattern = API_PREFIX + route.path;
    // What OPTIONS and 405 answers list, worked out once per route.
    const allowed = Object.keys(route.methods).sort();
    app.all(API_PREFIX + routerPath(route.path), (event) => {
      noteRoute(event.req, pattern);
      return dispatch(ctx, route, allowed, event, bodyReadTimeoutMs).catch(answerInternalError(event.req));
    });
  }
  for (const route of FILE_ROUTES) {
    app.all(routerPath(route.path), (event) => {
      noteRoute(event.req, route.path);
      return serveFile(ctx, route, event).catch(answerInternalError(event.req));
    });
  }
  for (const route of REDIRECT_ROUTES) {
    app.all(routerPath(route.path), (event) => {
      noteRoute(event.req, route.path);
      return serveRedirect(ctx, route, event).catch(answerInternalError(event.req));
    });
  }
  addHealthRoutes(app, ctx);
  if (options.webRoot === undefined) app.all('/**', () => failure(notFound()));
  else {
    const serveWebClient = createWebClientHandler(options.webRoot);
    app.all('/**', (event) => serveWebClient(event).catch(answerInternalError));
  }
  return app;
}

/** The route table's placeholders in h3's syntax: `{name}` one segment, `{+name}` the rest of the path. */
function routerPath(path: string): string {
  return path.replace(/\{\+(\w+)\}/g, '**:$1').replace(/\{(\w+)\}/g, ':$1');
}

async function dispatch(ctx: Ctx, route: Route, allowed: readonly string[], event: H3Event, bodyReadTimeoutMs: number): Promise<Response> {
  const request = event.req;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (method === 'OPTIONS') return fastResponse(null, { status: 204, headers: { allow: allowed.join(', ') } });
  const operation = route.methods[method as Method];
  if (!operation) return unread(request, failure(methodNotAllowed(), { allowed_methods: allowed }));

  // Credentials before the body: a caller who may not use the operation costs no more than its
  // headers, however large a body it announces or sends.
  const caller = await identify(ctx, operation, request);
  if (caller.isErr()) return unread(request, failure(caller.error));
  const admitted = checkCaller(operation, caller.value);
  if (admitted.isErr()) return unread(request, failure(admitted.error));
  // Counted before the body is read too: a refused caller costs no more than its headers.
  const limits = await checkRateLimit(ctx, operation, caller.value);
  if (!limits) return answer(ctx, route, operation, caller.value, event, method, bodyReadTimeoutMs, []);
  const headers = rateLimitHeaders(limits);
  if (limits.refusal) return unread(request, withHeaders(failure(limits.refusal), headers));
  return withHeaders(await answer(ctx, route, operation, caller.value, event, method, bodyReadTimeoutMs, headers), headers);
}

/** Reads the parameters of an admitted request, runs its operation and answers; `headers` go on a success written directly. */
async function answer(
  ctx: Ctx,
  route: Route,
  operation: AnyOperation,
  caller: Caller,
  event: H3Event,
  method: string,
  bodyReadTimeoutMs: number,
  headers: readonly [string, string][],
): Promise<Response> {
  const request = event.req;
  // Routes that take files (POST /user_uploads) accept bodies as large as their files may be;
  // a caller nobody has authenticated (login, spectators, invitations) sends only small forms.
  const routeLimit = Math.max(ctx.config.maxRequestBodyBytes, route.maxBodyBytes?.(ctx.config) ?? 0);
  const limit = caller.user ? routeLimit : Math.min(routeLimit, ANONYMOUS_BODY_LIMIT);
  const pathParams = decodePath((event.context.params ?? {}) as Record<string, string>);
  if (route.streamsFiles && isMultipart(request)) return dispatchStreamed(ctx, operation, caller, request, pathParams, limit);

  const nodeMessage = event.runtime?.node?.req;
  const params = await readParams(request, queryString(request.url), limit, bodyReadTimeoutMs, nodeMessage instanceof IncomingMessage ? nodeMessage : undefined);
  if (params.isErr()) return unread(request, failure(params.error));
  if (route.queueOwned) {
    const atOwner = await answerAtQueueOwner(ctx, request, params.value);
    if (atOwner) return atOwner;
  }
  const input = extend(params.value, pathParams);
  const result = await operation.fromTransport(ctx, caller, input);
  if (result.isErr()) return failure(result.error);
  const ignored = ignoredParameters(params.value, operation);
  // Served by node:http (not app.fetch, not HTTP/2): the answer goes straight to node's
  // response. HEAD keeps the bridge, which answers it without a body or content-length.
  const node = event.runtime?.node?.res;
  if (node instanceof ServerResponse && method === request.method) {
    writeSuccess(node, successEnvelope(result.value as object, ignored), headers);
    return WRITTEN;
  }
  return success(result.value as object, ignored);
}

/**
 * A multipart body read while the operation runs: the operation gets the file as a stream. The
 * parameters object is shared with the reader, so parts after the file (a second file, late
 * fields) are there once the file's stream has ended.
 */
async function dispatchStreamed(
  ctx: Ctx,
  operation: AnyOperation,
  caller: Caller,
  request: Request,
  pathParams: Record<string, string>,
  limit: number,
): Promise<Response> {
  const tooLarge = tooLargeByHeader(request, limit);
  if (tooLarge) return unread(request, failure(tooLarge));
  const form = await startStreamedForm(request, queryParams(queryString(request.url)), limit, ctx.config.maxRequestBodyBytes);
  if (form.isErr()) return unread(request, failure(form.error));
  try {
    for (const [name, value] of Object.entries(pathParams)) setParam(form.value.params, name, value);
    const result = await operation.fromTransport(ctx, caller, form.value.params);
    // The transport's own failure (too large, malformed, cut off) explains whatever the operation saw.
    const transportFailure = form.value.failure();
    if (transportFailure) return unread(request, failure(transportFailure));
    if (result.isErr()) return form.value.complete() ? failure(result.error) : unread(request, failure(result.error));
    return success(result.value as object, ignoredParameters(form.value.params, operation));
  } finally {
    form.value.stop();
  }
}

const isMultipart = (request: Request) => (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/**
 * A response sent before the request's body was read to its end: the connection closes after
 * it, so the rest of the body is never read (nor waited for by a graceful close).
 */
function unread(request: Request, response: Response): Response {
  if (hasBody(request)) response.headers.set('connection', 'close');
  return response;
}

/**
 * The query part of the request URL, cut out by hand: the URL is built from the Host header,
 * which may not parse (`host:99999`), and the query must not depend on it.
 */
function queryString(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return '';
  const end = url.indexOf('#', start);
  return url.slice(start + 1, end < 0 ? undefined : end);
}

function decodePath(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) out[name] = decodeURIComponent(value);
  return out;
}
