/**
 * Dependencies of @teamchat/core that the contract tests use directly. They are core's
 * dependencies, not the workspace root's, so they are loaded from core's package folder.
 */
import { createRequire } from 'node:module';
import type * as Neverthrow from '../../packages/core/node_modules/neverthrow/dist/index.js';

const requireFromCore = createRequire(new URL('../../packages/core/package.json', import.meta.url));

/** neverthrow's constructors, so transactions get real Ok and Err results. */
export const { ok, err } = requireFromCore('neverthrow') as typeof Neverthrow;
export type { Result } from '../../packages/core/node_modules/neverthrow/dist/index.js';

/** The part of a better-sqlite3 connection the SQLite tests use to inspect a file directly. */
export interface RawDatabase {
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
  prepare(source: string): { run(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
  close(): void;
}

/** Opens a database file with better-sqlite3 itself, bypassing the driver. */
export function openRaw(filename: string, options: { readonly?: boolean } = {}): RawDatabase {
  const Database = requireFromCore('better-sqlite3') as new (f: string, o?: object) => RawDatabase;
  return new Database(filename, options);
}
