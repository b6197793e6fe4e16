import { err, ok, type Result } from 'neverthrow';
import type { Struct } from 'superstruct';
import type { Ctx } from './context.js';
import { type ApiError, internalError, searchTooBroad, unauthorized } from './errors.js';
import { validateInput } from './schemas/validate.js';
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

/**
 * An API operation: callable in-process as `op(ctx, caller, input)`, and described (params,
 * auth) for transports. `input` is an object of parameters, either typed values or form text.
 * It always resolves, to a Result: an unexpected exception becomes INTERNAL_SERVER_ERROR and
 * is reported to `ctx.logger`.
 *
 * ```ts
 * const caller = { realm, user };   // user: null for a spectator of a web-public realm
 * const result = await doAddReaction(ctx, caller, { message_id: 42, emoji_name: 'tada' });
 * if (result.isErr()) console.error(result.error.code, result.error.msg); // an ApiError, as the REST API answers it
 * ```
 */
export interface Operation<P, R> {
  (ctx: Ctx, caller: Caller, input?: unknown): Promise<Result<R, ApiError>>;
  readonly params: Struct<P, Record<string, Struct<any, any>>>;
  readonly auth: AuthMode;
}

type Params<P> = Struct<P, Record<string, Struct<any, any>>>;

/**
 * Whether `caller` may call an operation of this auth mode at all. Operations check it first;
 * transports may check it before reading a request's body, so a caller refused here costs no
 * more than its headers.
 */
export function checkCaller(operation: Pick<Operation<unknown, unknown>, 'auth'>, caller: Caller): Result<void, ApiError> {
  return operation.auth === 'required' && !caller.user ? err(unauthorized()) : ok(undefined);
}

function build<P, R>(
  auth: AuthMode,
  params: Params<P>,
  run: (ctx: Ctx, caller: Caller, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R> {
  const op = async (ctx: Ctx, caller: Caller, input?: unknown) => {
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
  return Object.assign(op, { params, auth });
}

/** An operation that needs a logged-in user. */
export function userOperation<P, R>(
  params: Params<P>,
  run: (ctx: Ctx, actor: Actor, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R> {
  return build('required', params, (ctx, caller, p) => run(ctx, caller as Actor, p));
}

/** An operation that spectators may call too; `run` decides what they may see. */
export function spectatorOperation<P, R>(
  params: Params<P>,
  run: (ctx: Ctx, caller: Caller, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R> {
  return build('optional', params, run);
}

/** An operation that ignores identity (for example server settings, login). */
export function publicOperation<P, R>(
  params: Params<P>,
  run: (ctx: Ctx, caller: Caller, params: P) => Promise<Result<R, ApiError>>,
): Operation<P, R> {
  return build('none', params, run);
}
