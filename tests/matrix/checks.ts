/**
 * What the matrix asserts about one response, and the "unknown IDs" realm it compares another
 * realm's IDs with. Failures are collected as lines naming the caller, the request and the
 * answer, so one run lists every escalation and leak at once.
 */
import type { MatrixRequest, MatrixResponse } from './client.js';
import { describeRequest } from './client.js';
import type { RealmIds } from './world.js';

export class Findings {
  readonly lines: string[] = [];

  add(who: string, request: MatrixRequest, response: MatrixResponse, problem: string): void {
    this.lines.push(`${who}: ${describeRequest(request)} → ${response.status} ${response.text.slice(0, 200).trim()}\n    ${problem}`);
  }

  /** Every response: an envelope (API 2.1), never a 5xx. */
  envelope(who: string, request: MatrixRequest, response: MatrixResponse): void {
    if (response.status >= 500) this.add(who, request, response, 'a 5xx');
    else if (!response.body || (response.body.result !== 'success' && response.body.result !== 'error')) this.add(who, request, response, 'not an API envelope');
  }

  /** None of `markers` may appear unless the request itself carried it (an echoed name leaks nothing). */
  noLeak(who: string, request: MatrixRequest, response: MatrixResponse, markers: readonly string[], what: string): void {
    const sent = describeRequest(request).toLowerCase();
    const text = response.text.toLowerCase();
    const leaked = markers.filter((m) => !sent.includes(m.toLowerCase()) && text.includes(m.toLowerCase()));
    if (leaked.length > 0) this.add(who, request, response, `leaks ${what}: ${leaked.join(', ')}`);
  }

  denied(who: string, request: MatrixRequest, response: MatrixResponse, why: string): void {
    if (response.status < 400) this.add(who, request, response, `escalation: ${why} yet got ${response.status}`);
  }
}

const UNKNOWN_ID_BASE = 900_000;

/**
 * The first realm's IDs with every ID and name replaced by one that exists nowhere: what
 * another realm's IDs must be indistinguishable from.
 */
export function unknownIds(alpha: RealmIds): RealmIds {
  const swap = (value: unknown, key: string): unknown => {
    if (typeof value === 'number') return key === 'realmId' ? value : UNKNOWN_ID_BASE + value;
    if (typeof value === 'string') {
      if (key === 'host') return value;
      if (key === 'tag') return 'zulu';
      if (key === 'uploadPath') return `${alpha.realmId}/00/nosuchfilenosuchfile/none.txt`;
      return `nosuch-${value}`.replace(/alpha/g, 'zulu');
    }
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v, k)]));
    }
    return value;
  };
  return swap(alpha, '') as RealmIds;
}

/** The status and error code of a response: what "the same answer" compares. */
export const answerOf = (response: MatrixResponse) => `${response.status} ${response.body?.code ?? response.body?.result ?? '?'}`;
