/**
 * V8 settings for the long-running server process. `teamchat serve` applies them before it opens
 * anything; they are process-wide, so the library never sets them for an application that embeds it.
 *
 * Allocation-site pretenuring off. V8 watches which object and array literals survive young
 * collections and, past a threshold, allocates every later object of that literal straight into
 * the old generation. A burst of concurrent sends, each held for tens of milliseconds by the group
 * commit, tips the send path's literals over for the rest of the process's life: from then on each
 * send's events, recipient lists and response headers are born old and die old, only a full
 * collection reclaims them, and while they wait for it they keep the young objects they point to
 * alive through every scavenge. Measured under sends at half the sustained rate, the old
 * generation grew 2.5 times as fast with it, a full collection came every 2.5 s, and each one held
 * up the requests behind it for 30 to 70 ms (BENCHMARKS.md, sixth round).
 */
import { setFlagsFromString } from 'node:v8';

const SERVER_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

export function tuneV8ForServing(): void {
  for (const flag of SERVER_V8_FLAGS) setFlagsFromString(flag);
}
