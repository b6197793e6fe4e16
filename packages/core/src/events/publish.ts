import type { Ctx } from '../context.js';
import type { Tx } from '../storage/types.js';
import type { PublishedEvent } from './bus.js';

/**
 * Publishes an event once the transaction commits (and not at all if it rolls back). Every
 * action sends its events through here, never before its writes are durable.
 */
export function publishOnCommit(ctx: Ctx, tx: Tx, published: PublishedEvent): void {
  if (published.userIds.length === 0 && !published.allPublicStreamsQueues) return;
  // Among several processes the event is recorded with the transaction, and every process
  // (this one in the commit's after-commit step) delivers it after the commit.
  if (ctx.cluster) ctx.cluster.events.stage(tx, published);
  else tx.afterCommit(() => ctx.events.publish(published));
}

/** IDs of the realm's active users: the audience of realm-wide events. */
export async function activeUserIds(tx: Tx, realmId: number): Promise<number[]> {
  return (await tx.users.list(realmId)).filter((user) => user.isActive).map((user) => user.id);
}
