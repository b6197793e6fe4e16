/**
 * `createClient`: one typed method per endpoint of the server's route table (generated), plus
 * the few calls that read better by hand (password login, downloads, the event queue).
 */
import type { CallOptions, Connection } from './request.js';
import { basicAuthorization, callFile, callJson, fetchUrl } from './request.js';
import type { SuccessEnvelope } from './endpoint.js';
import { ENDPOINTS, type Endpoints } from './generated/endpoints.js';
import { EventQueue, type EventQueueOptions } from './event-queue.js';

export interface ClientOptions {
  /** The server's URL, such as `https://chat.example.com` (the API's `/api/v1` is added). */
  url: string | URL;
  /** The account's email (as the server knows it for logins) and API key; omit both for public calls. */
  email?: string;
  apiKey?: string;
  /** Sent as User-Agent where the runtime allows it (not in browsers). */
  userAgent?: string;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
}

/** The keys of T that a caller must give. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** A generated endpoint as a method: parameters optional when none is required. */
type MethodOf<E extends { input: unknown; result: unknown }, Answer> = [RequiredKeys<E['input']>] extends [never]
  ? (params?: E['input'], options?: CallOptions) => Promise<Answer>
  : (params: E['input'], options?: CallOptions) => Promise<Answer>;

/** A method per endpoint: API endpoints answer their data inside the success envelope, file endpoints a Response. */
export type EndpointMethods = {
  [K in keyof Endpoints]: MethodOf<Endpoints[K], Endpoints[K]['result'] extends Response ? Response : Endpoints[K]['result'] & SuccessEnvelope>;
};

/** What `fetchApiKey` answers. */
export interface FetchedApiKey extends SuccessEnvelope {
  api_key: string;
  email: string;
  user_id: number;
}

export interface Client extends Omit<EndpointMethods, 'fetchApiKey'> {
  /** Logs in with a password (POST /fetch_api_key): the account's API key, for `createClient({ email, apiKey })`. */
  fetchApiKey(username: string, password: string, options?: CallOptions): Promise<FetchedApiKey>;
  /** GETs a file by its server URL (an upload's `/user_uploads/…`, an avatar URL) with this client's credentials. */
  fetchFile(url: string, options?: { signal?: AbortSignal }): Promise<Response>;
  /** An event queue: register, long-poll with backoff, re-register when the server forgets it. Call `start()` or iterate it. */
  eventQueue(options?: EventQueueOptions): EventQueue;
  /** The server URL requests go to. */
  readonly url: string;
}

/** A client for one server and (optionally) one account. */
export function createClient(options: ClientOptions): Client {
  const base = String(options.url).replace(/\/+$/, '');
  const connection: Connection = {
    base,
    authorization: options.email !== undefined && options.apiKey !== undefined ? basicAuthorization(options.email, options.apiKey) : undefined,
    userAgent: options.userAgent ?? 'teamchat-client/0.1',
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
  const methods: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ENDPOINTS)) {
    methods[name] =
      spec.response === 'json'
        ? (params?: object, call?: CallOptions) => callJson(connection, spec, params, call)
        : (params?: object, call?: CallOptions) => callFile(connection, spec, params, call);
  }
  const client = {
    ...methods,
    url: base,
    fetchApiKey: (username: string, password: string, call?: CallOptions) =>
      callJson(connection, ENDPOINTS.fetchApiKey, { username, password }, call) as Promise<FetchedApiKey>,
    fetchFile: (url: string, call?: { signal?: AbortSignal }) => fetchUrl(connection, url, call),
    eventQueue: (queueOptions?: EventQueueOptions) => new EventQueue(client as Client, queueOptions),
  };
  return client as unknown as Client;
}
