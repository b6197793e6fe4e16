/**
 * Every type the client takes from @teamchat/core, in one place and type-only: the client
 * loads no server code. `InputOf` / `ResultOf` read an operation's parameter and result types
 * from `Operation<P, R>`; when core exports its own helpers of these names, this file becomes
 * a re-export of them.
 */
import type { Operation } from '@teamchat/core';

export type { ApiEvent, QueuedEvent } from '@teamchat/core';

/** The typed parameters of a core operation (values, not form text). */
// biome-ignore lint/suspicious/noExplicitAny: only P is inferred; R is left open.
export type InputOf<Op> = Op extends Operation<infer P, any> ? P : never;

/** The data a core operation answers with (the HTTP envelope adds `result` and `msg`). */
// biome-ignore lint/suspicious/noExplicitAny: only R is inferred; P is left open.
export type ResultOf<Op> = Op extends Operation<any, infer R> ? R : never;
