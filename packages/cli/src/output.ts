import type { ApiError } from '@teamchat/core';
import { CliError } from './data-dir.js';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Unwraps a core result for the CLI: an error ends the command with its message. */
export function orFail<T>(result: { isOk(): boolean; value?: T; error?: ApiError }): T {
  if (!result.isOk()) throw new CliError(result.error?.msg ?? 'failed');
  return result.value as T;
}

/** `[api]` section of a .zuliprc that the reference's clients read. */
export function zuliprc(email: string, apiKey: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n`;
}
