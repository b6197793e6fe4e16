import type { Ctx } from '../context.js';
import type { ClientCapability } from '../events/types.js';
import type { Caller } from '../operation.js';
import type { Tx } from '../storage/types.js';
import { STATE_SECTIONS } from './all.js';

/** Register parameters that shape the initial state. */
export interface StateOptions {
  clientGravatar: boolean;
  applyMarkdown: boolean;
  includeSubscribers: boolean | 'partial';
  slimPresence: boolean;
  /** register's presence_history_limit_days: how far back the presence section goes (14 days when absent). */
  presenceHistoryLimitDays?: number;
  capabilities: ReadonlySet<ClientCapability>;
  /** Every requested section key (null: all), for sections that depend on another being requested. */
  wanted?: ReadonlySet<string> | null;
}

/**
 * One part of the POST /register snapshot. Each area defines its sections in its own module,
 * and state/all.ts lists them all (STATE_SECTIONS); a section is fetched when its `key` is among the requested fetch_event_types (or when all are).
 */
export interface StateSection {
  /** The reference's fetch_event_types name for the section. */
  key: string;
  /** Other names that select it too (older spellings clients still send). */
  aliases?: readonly string[];
  /** Event types that keep the section current; the key itself unless listed. */
  eventTypes?: readonly string[];
  fetch(ctx: Ctx, tx: Tx, caller: Caller, options: StateOptions): Promise<Record<string, unknown>>;
}

/** The snapshot for the requested section keys (null: every section), in one consistent read. */
export async function fetchInitialState(
  ctx: Ctx,
  tx: Tx,
  caller: Caller,
  wanted: ReadonlySet<string> | null,
  options: StateOptions,
): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const section of STATE_SECTIONS) {
    if (wanted !== null && !wanted.has(section.key) && !section.aliases?.some((alias) => wanted.has(alias))) continue;
    Object.assign(state, await section.fetch(ctx, tx, caller, { ...options, wanted }));
  }
  return state;
}
