/**
 * With `--database postgres://…` every `teamchat serve` process is a node of the cluster of the
 * processes serving that database (cluster/ of @teamchat/postgres): events, queue ownership,
 * once-only housekeeping and login limits are shared through it. The data directory still
 * holds uploads, shared by the nodes.
 */
import type { Logger } from '@teamchat/core';
import { joinPostgresCluster, type PostgresClusterMember } from '@teamchat/postgres';
import { CliError } from './data-dir.js';

/** Joins the cluster on `url` as `nodeId` (a random ID when absent). */
export async function joinCluster(url: string, nodeId: string | undefined, logger?: Logger): Promise<PostgresClusterMember> {
  try {
    return await joinPostgresCluster({ url, nodeId, logger });
  } catch (error) {
    throw new CliError(`--database: ${(error as Error).message}`);
  }
}
