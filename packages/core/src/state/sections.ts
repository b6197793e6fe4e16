import type { Ctx } from '../context.js';
import type { ClientCapability } from '../events/types.js';
import type { Caller } from '../operation.js';
import type { Tx } from '../storage/types.js';
import { STATE_SECTIONS } from './all.js';
import type { InitialState, RegisterResponse } from './register-response.js';

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
 * What a section may give: any keys of the register answer, each of its declared type. (The
 * `realm` section also repeats some queue-level limits, such as max_message_length.)
 */
export type SectionState = Partial<RegisterResponse>;

/**
 * One part of the POST /register snapshot. Each area defines its sections in its own module
 * with `defineSection`, and state/all.ts lists them all (STATE_SECTIONS); a section is fetched
 * when its `key` is among the requested fetch_event_types (or when all are). `T` is what its
 * fetch gives, inferred from the definition: all.ts checks it against RegisterResponse.
 */
export interface StateSection<T extends SectionState = SectionState> {
  /** The reference's fetch_event_types name for the section. */
  key: string;
  /** Other names that select it too (older spellings clients still send). */
  aliases?: readonly string[];
  /** Event types that keep the section current; the key itself unless listed. */
  eventTypes?: readonly string[];
  fetch(ctx: Ctx, tx: Tx, caller: Caller, options: StateOptions): Promise<T>;
}

/**
 * A section whose fetch result type is kept (inferred from `fetch`), so that the table in
 * all.ts can check every key it gives against the documented RegisterResponse.
 */
export function defineSection<T extends SectionState>(section: StateSection<T>): StateSection<T> {
  return section;
}

/** The snapshot for the requested section keys (null: every section), in one consistent read. */
export async function fetchInitialState(
  ctx: Ctx,
  tx: Tx,
  caller: Caller,
  wanted: ReadonlySet<string> | null,
  options: StateOptions,
): Promise<InitialState> {
  const state: SectionState = {};
  for (const section of STATE_SECTIONS) {
    if (wanted !== null && !wanted.has(section.key) && !section.aliases?.some((alias) => wanted.has(alias))) continue;
    Object.assign(state, await section.fetch(ctx, tx, caller, { ...options, wanted }));
  }
  return state;
}
