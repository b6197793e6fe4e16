/** How outgoing webhooks are delivered: the knobs a server (or a test) may set through the context. */

export interface OutgoingWebhookOptions {
  /** The HTTP client; the platform's `fetch` unless a test injects another. */
  fetch: typeof fetch;
  /** Per request, as the reference's OUTGOING_WEBHOOK_TIMEOUT_SECONDS (10 s). */
  timeoutMs: number;
  /** Retries after a timeout or connection error before giving up (the reference's MAX_REQUEST_RETRIES). */
  maxRetries: number;
  /** Requests in flight at once, for the whole server. */
  concurrency: number;
  /** Deliveries waiting for a free slot; past this, new ones are dropped (and logged). */
  maxQueued: number;
  /** A response body longer than this is not read to its end, and counts as a failure. */
  maxResponseBytes: number;
}

/** The outgoing webhook options a context has unless it overrides them (`fetch` is the global one). */
export const DEFAULT_OUTGOING_WEBHOOK_OPTIONS: Omit<OutgoingWebhookOptions, 'fetch'> = {
  timeoutMs: 10_000,
  maxRetries: 3,
  concurrency: 4,
  maxQueued: 10_000,
  maxResponseBytes: 1024 * 1024,
};

/** The options in force: the context's, over the defaults. */
export function outgoingWebhookOptions(given: Partial<OutgoingWebhookOptions> | undefined): OutgoingWebhookOptions {
  return { fetch: globalThis.fetch.bind(globalThis), ...DEFAULT_OUTGOING_WEBHOOK_OPTIONS, ...given };
}
