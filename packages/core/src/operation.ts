import { err, ok, type Result } from 'neverthrow';
import type { Struct } from 'superstruct';
import type { Ctx } from './context.js';
import { type ApiError, internalError, searchTooBroad, unauthorized } from './errors.js';
import { validateInput } from './schemas/validate.js';
import type { FilledWhenAbsent } from './schemas/wire.js';
import { SearchTooBroadError } from './storage/message-types.js';
import type { Realm, User } from './storage/types.js';

/** The authenticated user an operation acts for, and their realm. */
export interface Actor {
  realm: Realm;
  user: User;
  /** As on `Caller`. */
  clientIp?: string | null;
}

/** Who calls an operation: an authenticated user, or a spectator (user null) of a realm. */
export interface Caller {
  realm: Realm;
  user: User | null;
  /**
   * The client's network address as the transport determined it (behind trusted proxies, from
   * X-Forwarded-For); absent for in-process callers. Logins are limited per address.
   */
  clientIp?: string | null;
}

/** `required`: a logged-in user; `optional`: spectators too where the operation allows it; `none`: no identity at all. */
export type AuthMode = 'required' | 'optional' | 'none';

/** The struct of an operation's parameters: `P` the parsed values, `S` its per-field structs. */
type Params<P, S> = Struct<P, S>;

/** The fields of schema `S` that the struct fills in when absent (marked by `defaulted`). */
type DefaultedKeys<S> = { [K in keyof S]: S[K] extends FilledWhenAbsent ? K : never }[keyof S];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The input an in-process caller passes for parsed parameters `P` of schema `S`: typed values,
 * with every field that the schema marks optional or defaulted left optional. A schema without
 * named fields (one built from a computed table) gives `P` itself.
 */
export type InputOfParams<P, S> = string extends keyof S
  ? P
  : Simplify<Omit<P, DefaultedKeys<S>> & Partial<Pick<P, DefaultedKeys<S> & keyof P>>>;

/** The input argument: optional when every field of the input is. */
type InputArgs<I> = Partial<I> extends I ? [input?: I] : [input: I];

/**
 * A request's parameters as a transport decoded them: form text (JSON inside for non-string
 * values), uploaded files, path parameters. Only the operation's own validation types them.
 */
export type TransportInput = Readonly<Record<string, unknown>>;

/**
 * An API operation: callable in-process as `op(ctx, caller, input)` with typed input (see
 * `InputOf`), and described (params, auth) for transports, which call `op.fromTransport` with
 * the request's decoded but untyped parameters. Both run the same validation; the call always
 * resolves, to a Result: an unexpected exception becomes INTERNAL_SERVER_ERROR and is reported
 * to `ctx.logger`.
 *
 * ```ts
 * const caller = { realm, user };   // user: null for a spectator of a web-public realm
 * const result = await doAddReaction(ctx, caller, { message_id: 42, emoji_name: 'tada' });
 * if (result.isErr()) console.error(result.error.code, result.error.msg); // an ApiError, as the REST API answers it
 * ```
 */
export interface Operation<P, R, S = unknown> {
  (ctx: Ctx, caller: Caller, ...input: InputArgs<InputOfParams<P, S>>): Promise<Result<R, ApiError>>;
  /** The untyped entry for transports: `record` holds the request's form text and files. */
  fromTransport(ctx: Ctx, caller: Caller, record: TransportInput): Promise<Result<R, ApiError>>;
  readonly params: Params<P, S>;
  readonly auth: AuthMode;
}

/**
 * The typed input of an operation: `InputOf<typeof doSendMessage>`. Fields with a default are
 * optional, path parameters (`message_id`) are fields.
 */
export type InputOf<Op> = Op extends Operation<infer P, unknown, infer S> ? InputOfParams<P, S> : never;

/** The success value of an operation: `ResultOf<typeof getMessages>`. */
export type ResultOf<Op> = Op extends { fromTransport(...args: never[]): Promise<Result<infer R, ApiError>> } ? R : never;

/**
 * Whether `caller` may call an operation of this auth mode at all. Operations check it first;
 * transports may check it before reading a request's body, so a caller refused here costs no
 * more than its headers.
 */
export function checkCaller(operation: { readonly auth: AuthMode }, caller: Caller): Result<void, ApiError> {
  return operation.auth === 'required' && !caller.user ? err(unauthorized()) : ok(undefined);
}

function build<P, R, S>(
  auth: AuthMode,
  params: Params<P, S>,
  run: (ctx: Ctx, caller: Caller, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R, S> {
  const op = async (ctx: Ctx, caller: Caller, input?: unknown): Promise<Result<R, ApiError>> => {
    const allowed = checkCaller({ auth }, caller);
    if (allowed.isErr()) return err(allowed.error);
    const parsed = validateInput(params, input);
    if (parsed.isErr()) return err(parsed.error);
    try {
      return await run(ctx, caller, parsed.value);
    } catch (error) {
      // The one catch boundary: an operation always resolves to a Result. The one storage
      // exception that is the request's fault is a search past the driver's budget; anything
      // else (a driver failure, a bug) is reported and answered as an internal error, its
      // transaction already rolled back by the driver.
      if (error instanceof SearchTooBroadError) return err(searchTooBroad());
      ctx.logger.error({ err: error }, 'an operation failed unexpectedly');
      return err(internalError());
    }
  };
  // One function behind both entries: the typed call only narrows what the compiler accepts.
  return Object.assign(op, { params, auth, fromTransport: op }) as Operation<P, R, S>;
}

/** An operation that needs a logged-in user. */
export function userOperation<P, R, S>(
  params: Params<P, S>,
  run: (ctx: Ctx, actor: Actor, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R, S> {
  return build('required', params, (ctx, caller, p) => run(ctx, caller as Actor, p));
}

/** An operation that spectators may call too; `run` decides what they may see. */
export function spectatorOperation<P, R, S>(
  params: Params<P, S>,
  run: (ctx: Ctx, caller: Caller, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R, S> {
  return build('optional', params, run);
}

/** An operation that ignores identity (for example server settings, login). */
export function publicOperation<P, R, S>(
  params: Params<P, S>,
  run: (ctx: Ctx, caller: Caller, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R, S> {
  return build('none', params, run);
}
