/** The errors a request can end in: the server's error envelope, or no usable answer at all. */

/**
 * The server answered with its error envelope: `{"result": "error", "msg", "code", ...}`.
 * `data` holds the envelope's other fields (`var_name`, `stream`, `retry-after`…).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The API's error code, `BAD_REQUEST` when the envelope names none (as the reference's clients assume). */
  readonly code: string;
  /** The server's message, unchanged. */
  readonly msg: string;
  readonly status: number;
  readonly data: Readonly<Record<string, unknown>>;
  /** Seconds to wait before retrying (RATE_LIMIT_HIT): the envelope's `retry-after`, else the header's. */
  readonly retryAfter: number | undefined;

  constructor(status: number, envelope: Record<string, unknown>, retryAfterHeader: string | null = null) {
    const msg = typeof envelope.msg === 'string' ? envelope.msg : `HTTP ${status}`;
    super(msg);
    this.msg = msg;
    this.status = status;
    this.code = typeof envelope.code === 'string' ? envelope.code : 'BAD_REQUEST';
    const { result: _result, msg: _msg, code: _code, ...data } = envelope;
    this.data = data;
    const fromBody = data['retry-after'];
    const fromHeader = retryAfterHeader === null ? Number.NaN : Number(retryAfterHeader);
    this.retryAfter = typeof fromBody === 'number' ? fromBody : Number.isFinite(fromHeader) ? fromHeader : undefined;
  }
}

/**
 * No answer the client can read: the network failed, the request was aborted or timed out, or
 * the response was not the API's JSON (a proxy's 502 page). `status` is 0 when nothing arrived.
 */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  constructor(
    message: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whether retrying the same request later may succeed: network failures and 5xx answers. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return error.status === 0 || error.status >= 500;
  return error instanceof ApiError && error.status >= 500;
}
