/**
 * `teamchat serve --push-notifier MODULE`: the push notifier comes from a module the operator
 * provides (a relay to their push service, a Web Push sender, ...), since the reference's
 * bouncer is not reachable from here. The module's default export is a notifier, or a function
 * given `{ dataDir }` that returns (or resolves to) one: a `PushNotifierModule` (index.ts).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PushNotifier } from '@teamchat/core';
import { CliError } from './data-dir.js';

/** Loads the notifier `specifier` names: a file path (relative to the working directory) or a package name. */
export async function loadPushNotifier(specifier: string, dataDir: string): Promise<PushNotifier> {
  const isPath = specifier.startsWith('.') || isAbsolute(specifier);
  let module: Record<string, unknown>;
  try {
    module = (await import(isPath ? pathToFileURL(resolve(specifier)).href : specifier)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`--push-notifier: cannot load '${specifier}': ${(error as Error).message}`);
  }
  const exported = module.default;
  const notifier = (typeof exported === 'function' ? await exported({ dataDir: resolve(dataDir) }) : exported) as Partial<PushNotifier> | undefined;
  if (!notifier || typeof notifier.notify !== 'function' || typeof notifier.remove !== 'function') {
    throw new CliError(`--push-notifier: '${specifier}' exports no push notifier (an object with notify and remove, or a function returning one)`);
  }
  return notifier as PushNotifier;
}
