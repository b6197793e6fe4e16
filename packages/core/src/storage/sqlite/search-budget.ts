/**
 * A step budget for full-text searches. better-sqlite3 has no progress handler, so the search
 * subquery calls `search_step(token)` once per candidate row it yields; past the budget the
 * function throws, SQLite stops the statement, and the error reaches the operation as
 * SearchTooBroadError. Each compiled query has its own token, so its statements share one
 * budget and a new query starts from zero.
 */
import type Database from 'better-sqlite3';
import { SearchTooBroadError } from '../message-types.js';

/**
 * The default budget: every message of a large realm's history (a common word in 200,000
 * messages takes about a tenth of a second to walk), far from what a search box needs.
 */
export const DEFAULT_SEARCH_ROW_BUDGET = 200_000;

/** SQL that counts one step of the query named by the next parameter (a token). */
export const SEARCH_STEP = 'search_step(?)';

let lastToken = 0;
/** A fresh token for one compiled query. */
export const newSearchToken = () => ++lastToken;

/** Registers `search_step` on a connection, failing past `budget` steps of one token. */
export function registerSearchBudget(db: Database.Database, budget: number): void {
  let token = 0;
  let steps = 0;
  db.function('search_step', { deterministic: false }, (current) => {
    if (current !== token) {
      token = current as number;
      steps = 0;
    }
    if (++steps > budget) throw new SearchTooBroadError(budget);
    return 1;
  });
}
