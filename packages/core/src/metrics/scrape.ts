/** The numbers a metrics exporter reads when it is scraped, rather than counting them as they change. */
import type { Ctx } from '../context.js';

/** Event queues registered in this process, and the long-polls waiting on them now. */
export function queueMetrics(ctx: Ctx): { queues: number; waitingPolls: number } {
  return { queues: ctx.queues.size, waitingPolls: ctx.queues.waitingPolls() };
}

/**
 * The scheduler's backlog: scheduled messages and reminders already due but not yet sent or
 * marked failed. Normally zero; it grows when delivery falls behind or keeps failing.
 */
export async function countSchedulerBacklog(ctx: Ctx): Promise<{ scheduledMessages: number; reminders: number }> {
  const due = await ctx.storage.read((tx) => tx.scheduledMessages.due(Math.floor(ctx.clock.now() / 1000)));
  let reminders = 0;
  for (const row of due) if (row.deliveryType === 'remind') reminders++;
  return { scheduledMessages: due.length - reminders, reminders };
}
