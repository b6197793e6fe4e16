/**
 * Builds and sends one request from an endpoint's spec and typed parameters, and reads the
 * answer: the JSON envelope for API endpoints, the raw Response for file endpoints.
 */
import type { EndpointSpec } from './endpoint.js';
import { ApiError, ConnectionError } from './errors.js';

/** Where and as whom requests go; see `ClientOptions` in client.ts for each field. */
export interface Connection {
  /** The server's origin (and any path prefix), without a trailing slash. */
  base: string;
  authorization: string | undefined;
  userAgent: string | undefined;
  fetch: typeof fetch;
}

/** Per-call options of every client method. */
export interface CallOptions {
  /** Files to upload (sent as multipart/form-data): one, a list, or by field name. */
  files?: Blob | readonly Blob[] | Readonly<Record<string, Blob>>;
  signal?: AbortSignal;
}

/** The API's path prefix. */
export const API_PREFIX = '/api/v1';

/** `Basic base64(email:key)`, UTF-8 safe in browsers too (btoa takes only Latin-1). */
export function basicAuthorization(email: string, apiKey: string): string {
  const bytes = new TextEncoder().encode(`${email}:${apiKey}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** Browsers refuse to let scripts set User-Agent; elsewhere (Node, Deno, Bun) it names the client. */
const canSetUserAgent = () => typeof (globalThis as { document?: unknown }).document === 'undefined';

/** A parameter value as form text: JSON-typed parameters and non-strings as JSON, other strings as they are. */
function formText(spec: EndpointSpec, name: string, value: unknown): string {
  return typeof value === 'string' && !spec.json.includes(name) ? value : JSON.stringify(value);
}

/** Fills the path template: `{name}` as one encoded segment, `{+name}` keeping its slashes. */
export function expandPath(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\+?)([a-z_]+)\}/g, (_, reserved: string, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new TypeError(`missing path parameter ${name} for ${template}`);
    const text = String(value);
    return reserved ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text);
  });
}

function fileList(files: CallOptions['files']): [string, Blob][] {
  if (files === undefined) return [];
  if (files instanceof Blob) return [['file', files]];
  if (Array.isArray(files)) return (files as readonly Blob[]).map((file, i) => [`file${i}`, file]);
  return Object.entries(files as Record<string, Blob>);
}

/** The request for `spec` with `params`: path parameters in the path, the rest in the query (GET, DELETE) or the body. */
export function buildRequest(connection: Connection, spec: EndpointSpec, params: object = {}, options: CallOptions = {}): Request {
  const values = params as Record<string, unknown>;
  const prefix = spec.response === 'json' ? API_PREFIX : '';
  const url = new URL(connection.base + prefix + expandPath(spec.path, values));
  const fields: [string, string][] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !spec.pathParams.includes(name)) fields.push([name, formText(spec, name, value)]);
  }
  const files = fileList(options.files);
  const headers = new Headers();
  if (connection.authorization) headers.set('authorization', connection.authorization);
  if (connection.userAgent && canSetUserAgent()) headers.set('user-agent', connection.userAgent);

  let body: BodyInit | undefined;
  if (spec.method === 'GET' || (spec.method === 'DELETE' && files.length === 0)) {
    for (const [name, text] of fields) url.searchParams.append(name, text);
  } else if (files.length > 0) {
    const form = new FormData();
    for (const [name, text] of fields) form.append(name, text);
    for (const [name, file] of files) form.append(name, file, file instanceof File ? file.name : name);
    body = form;
  } else {
    body = new URLSearchParams(fields);
  }
  const redirect = spec.response === 'redirect' ? 'manual' : 'follow';
  return new Request(url, { method: spec.method, headers, body, signal: options.signal, redirect });
}

/** Sends a request, turning a failure to get any answer into ConnectionError (an abort stays an abort). */
async function send(connection: Connection, request: Request): Promise<Response> {
  try {
    return await connection.fetch(request);
  } catch (error) {
    if (request.signal.aborted) throw error;
    throw new ConnectionError(`${request.method} ${request.url}: ${String(error)}`, 0, { cause: error });
  }
}

/** Reads an answer's error envelope, or says why there is none. */
async function failureOf(response: Response, request: Request): Promise<Error> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ConnectionError(`${request.method} ${request.url}: HTTP ${response.status}, not a JSON answer`, response.status);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return new ConnectionError(`${request.method} ${request.url}: HTTP ${response.status}, not an API answer`, response.status);
  }
  return new ApiError(response.status, body as Record<string, unknown>, response.headers.get('retry-after'));
}

/** Calls an API endpoint: the success envelope, or throws ApiError / ConnectionError. */
export async function callJson(connection: Connection, spec: EndpointSpec, params?: object, options?: CallOptions): Promise<unknown> {
  const request = buildRequest(connection, spec, params, options);
  const response = await send(connection, request);
  if (!response.ok) throw await failureOf(response, request);
  let body: { result?: unknown } | null;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = null;
  }
  if (body?.result === 'success') return body;
  throw new ConnectionError(`${request.method} ${request.url}: HTTP ${response.status}, not an API answer`, response.status);
}

/** Calls a file or redirect endpoint: the Response when it is 2xx (or the redirect itself), else throws. */
export async function callFile(connection: Connection, spec: EndpointSpec, params?: object, options?: CallOptions): Promise<Response> {
  const request = buildRequest(connection, spec, params, options);
  return readFile(connection, request);
}

/** GETs a server URL (absolute, or relative to the server such as an upload's `/user_uploads/…`) with the client's credentials. */
export async function fetchUrl(connection: Connection, url: string, options: { signal?: AbortSignal } = {}): Promise<Response> {
  const target = new URL(url, `${connection.base}/`);
  const headers = new Headers();
  // Credentials go only to the client's own server, never to a URL elsewhere.
  if (connection.authorization && target.origin === new URL(connection.base).origin) headers.set('authorization', connection.authorization);
  if (connection.userAgent && canSetUserAgent()) headers.set('user-agent', connection.userAgent);
  return readFile(connection, new Request(target, { headers, signal: options.signal }));
}

async function readFile(connection: Connection, request: Request): Promise<Response> {
  const response = await send(connection, request);
  // A redirect asked not to be followed: 3xx, or in browsers an opaque 0.
  const unfollowed = request.redirect === 'manual' && (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400));
  if (response.ok || unfollowed) return response;
  throw await failureOf(response, request);
}
