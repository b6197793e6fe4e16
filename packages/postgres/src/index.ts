/** @teamchat/postgres: the storage contract over PostgreSQL (see driver.ts and the README). */
export { createPostgresStorage, type PostgresOptions, WRITE_LOCK } from './driver.js';
export { joinPostgresCluster, type PostgresClusterMember, type PostgresClusterOptions, type PostgresEventTransport, pruneEvents } from './cluster/index.js';
