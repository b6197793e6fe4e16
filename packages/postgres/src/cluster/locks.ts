/**
 * Advisory lock keys of the cluster. PostgreSQL's advisory locks share one key space per
 * database; these are fixed 64-bit keys chosen not to collide with the storage driver's
 * (which locks with small keys), written as strings because they exceed 2^53.
 */

/** Held from an event ID's allocation to its transaction's commit: IDs are in commit order. */
export const EVENTS_LOCK = '7301955012345600001';
/** Taken while creating the cluster's tables. */
export const CLUSTER_SCHEMA_LOCK = '7301955012345600002';
/** The first key of exclusive jobs; a job's key is derived from its name (jobs.ts). */
export const JOB_LOCK_NAMESPACE = 'teamchat-cluster-job:';
