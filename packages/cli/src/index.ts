/**
 * `@teamchat/cli` is the `teamchat` command; this entry holds only the types an operator's
 * module implements for it, so that such a module can be written in TypeScript against them.
 *
 * @module
 */
import type { PushNotifier } from '@teamchat/core';

/** What `teamchat serve --push-notifier MODULE` is given: the server's data directory (absolute). */
export interface PushNotifierModuleOptions {
  dataDir: string;
}

/**
 * The default export of a `--push-notifier` module: a notifier, or a function that builds one
 * (it may be async).
 *
 * ```ts
 * import type { PushNotifierModule } from '@teamchat/cli';
 *
 * const relay: PushNotifierModule = ({ dataDir }) => ({
 *   notify(notification) { … },
 *   remove(removal) { … },
 * });
 * export default relay;
 * ```
 */
export type PushNotifierModule = PushNotifier | ((options: PushNotifierModuleOptions) => PushNotifier | Promise<PushNotifier>);
