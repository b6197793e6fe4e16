/**
 * `teamchat serve --database postgres://…`: the store is PostgreSQL and the process is a node of
 * the cluster of every process serving that database (cluster/ of @teamchat/postgres). The data
 * directory still holds uploads (shared between nodes) and the owner's zuliprc.
 */
import { type ContextOptions, type Ctx, createContext, fileSystemBlobStore } from '@teamchat/core';
import { createPostgresStorage, joinPostgresCluster, type PostgresClusterMember } from '@teamchat/postgres';
import { CliError, makeDataDirPrivate, uploadsPath } from './data-dir.js';

/** Whether `database` names a PostgreSQL server rather than a file. */
export const isPostgresUrl = (database: string | undefined): database is string => /^postgres(ql)?:\/\//.test(database ?? '');

export interface PostgresNode {
  ctx: Ctx;
  member: PostgresClusterMember;
}

export async function openPostgresNode(
  url: string,
  dataDir: string,
  nodeId: string | undefined,
  options: Omit<ContextOptions, 'databaseFile' | 'storage' | 'uploads' | 'cluster'> = {},
): Promise<PostgresNode> {
  makeDataDirPrivate(dataDir);
  let member: PostgresClusterMember;
  try {
    member = await joinPostgresCluster({ url, nodeId, logger: options.logger });
  } catch (error) {
    throw new CliError(`--database: ${(error as Error).message}`);
  }
  const storage = createPostgresStorage({ url, events: member.events, logger: options.logger, detectNestedCalls: false });
  const ctx = createContext({ ...options, storage, cluster: member, uploads: fileSystemBlobStore(uploadsPath(dataDir)) });
  return { ctx, member };
}
