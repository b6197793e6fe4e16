export { joinPostgresCluster, type PostgresClusterMember, type PostgresClusterOptions } from './member.js';
export type { PostgresEventTransport } from './transport.js';
export { pruneEvents } from './event-log.js';
