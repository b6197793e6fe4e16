/**
 * What the server learns about a request while the app handles it (its route pattern, who sent
 * it), for the request's log line and metrics. The record rides on the request object the
 * server hands to `app.fetch`; a request without one (no logger and no metrics, or `app.fetch`
 * called directly) costs the notes below a property read.
 */
import type { Caller } from '@teamchat/core';

export interface RequestRecord {
  /** The request ID: the client's `X-Request-Id` when sane, else one made up (request-id.ts). */
  id: string;
  /** The route table's pattern that matched (`/api/v1/messages/{message_id}`); null: none did. */
  route: string | null;
  userId: number | null;
  realmId: number | null;
}

const RECORD = Symbol('teamchat request record');

type Recorded = Request & { [RECORD]?: RequestRecord };

export function attachRecord(request: Request, record: RequestRecord): void {
  (request as Recorded)[RECORD] = record;
}

export function recordOf(request: Request): RequestRecord | undefined {
  return (request as Recorded)[RECORD];
}

/** Notes the route pattern that matched the request. */
export function noteRoute(request: Request, route: string): void {
  const record = (request as Recorded)[RECORD];
  if (record) record.route = route;
}

/** Notes who the request was authenticated as. */
export function noteCaller(request: Request, caller: Caller): void {
  const record = (request as Recorded)[RECORD];
  if (!record) return;
  record.realmId = caller.realm.id;
  record.userId = caller.user?.id ?? null;
}
