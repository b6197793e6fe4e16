/**
 * Every type the client takes from @teamchat/core, in one place and type-only: the client
 * loads no server code. `InputOf` / `ResultOf` are the core's own: an operation's typed
 * parameters (values, not form text; defaulted fields optional) and the data it answers with
 * (the HTTP envelope adds `result` and `msg`). The built declaration file inlines them
 * (scripts/bundle-types.ts), so users of the client need no @teamchat/core.
 */
export type { ApiEvent, InputOf, QueuedEvent, ResultOf } from '@teamchat/core';
