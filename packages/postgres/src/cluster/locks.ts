/**
 * Advisory lock keys of the cluster. PostgreSQL's advisory locks share one key space per
 * database; these are fixed 64-bit keys chosen not to collide with the storage driver's
 * (which locks with small keys), written as strings because they exceed 2^53.
 */

/** Held from an event ID's allocation to its transaction's commit: IDs are in commit order. */
export const EVENTS_LOCK = '7301955012345600001';
/** Taken while creating the cluster's tables. */
export const CLUSTER_SCHEMA_LOCK = '7301955012345600002';
/**
 * The names one cluster uses where PostgreSQL has a name space per database, not per schema:
 * notification channels and job lock keys. Clusters in two schemas of one database (tests, or
 * two installations) must not hear each other's events or wait for each other's jobs.
 */
export interface ClusterNames {
  /** Carries the newest committed event ID. */
  events: string;
  /** Carries transient events: `{ n: nodeId, p: PublishedEvent }`. */
  transient: string;
  /** Carries login attempts: `{ n: nodeId, c: LoginAttemptChange }`. */
  logins: string;
  /** Prefix of the text an exclusive job's lock key is hashed from. */
  jobs: string;
}

export function clusterNames(schema: string): ClusterNames {
  const scope = schema === 'public' ? '' : `${schema}.`;
  return { events: `${scope}teamchat_events`, transient: `${scope}teamchat_transient`, logins: `${scope}teamchat_logins`, jobs: `${scope}teamchat-job:` };
}
