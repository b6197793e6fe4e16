/**
 * The scheduler's core: sends every due scheduled message through POST /messages' own send
 * step as its sender, so a delivery is checked exactly like a send made now (archived
 * channel, deactivated recipient or sender…). A sent message is removed (`remove` event) in
 * the send's transaction; a refused one is kept with `failed: true` (`update` event). Reminders (`remind` rows) go
 * through deliverReminder instead. Callers arm one timer for
 * `nextDue`; messages that fell due while the server was down go out at the first call.
 */
import { err, ok as okResult } from 'neverthrow';
import type { ApiError } from '../errors.js';
import { normalizeContent } from '../messages/normalize.js';
import { sendMessageIn } from '../messages/send.js';
import { actorIn } from '../transaction.js';
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import type { ScheduledMessage } from '../storage/types.js';
import { formatScheduledMessage } from './fields.js';
import { sendNotificationBotMessage } from '../system-bots/send.js';
import { deliverReminder } from './deliver-reminder.js';

/** send_failed_scheduled_message_notification's text; the time is a global-time widget. */
function failureNotice(m: ScheduledMessage, error: string): string {
  const when = `<time:${new Date(m.deliveryTimestamp * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
  return `The message you scheduled for ${when} was not sent because of the following error:\n\n> ${error}\n\n[View scheduled messages](#scheduled)`;
}

export interface DeliveryReport {
  sent: number[];
  failed: number[];
  /** The next delivery time (Unix seconds) still pending, if any. */
  nextDue: number | undefined;
}

export async function deliverDueScheduledMessages(ctx: Ctx): Promise<DeliveryReport> {
  const due = await ctx.storage.read((tx) => tx.scheduledMessages.due(Math.floor(ctx.clock.now() / 1000)));
  const report: DeliveryReport = { sent: [], failed: [], nextDue: undefined };
  for (const message of due) {
    const outcome = await deliver(ctx, message);
    if (outcome !== 'skipped') report[outcome].push(message.id);
  }
  report.nextDue = await ctx.storage.read((tx) => tx.scheduledMessages.nextDue());
  return report;
}

/**
 * Sends one due scheduled message. The row is claimed in the send's own transaction: read
 * again there, sent, and deleted, all committed together, so a message deleted or edited since
 * the scan is not sent, and two schedulers on one database cannot both send it (the second
 * finds the row gone). A refused send rolls back and marks the row failed in a second
 * transaction, with the reference's notice to the sender.
 */
async function deliver(ctx: Ctx, m: ScheduledMessage): Promise<'sent' | 'failed' | 'skipped'> {
  // Reminders are the Notification Bot's DMs to their owner, not the owner's own sends.
  if (m.deliveryType === 'remind') return (await deliverReminder(ctx, m)) ? 'sent' : 'failed';
  const now = Math.floor(ctx.clock.now() / 1000);
  let refusal: ApiError | undefined;
  const sent = await ctx.storage.transaction(async (tx) => {
    const current = await tx.scheduledMessages.get(m.realmId, m.senderId, m.id);
    // Deleted, failed, edited to a later time, or sent by another scheduler since the scan.
    if (!current || current.failed || current.deliveryTimestamp > now) return okResult('skipped' as const);
    const actor = await actorIn(tx, m.realmId, m.senderId);
    if (!actor) return okResult('refused' as const);
    const content = normalizeContent(current.content, ctx.config);
    const result = content.isErr()
      ? content
      : await sendMessageIn(ctx, tx, actor, {
          channel: current.type === 'stream',
          to: current.type === 'stream' ? String(current.streamId) : JSON.stringify(current.recipientIds),
          topic: current.topic ?? undefined,
          content: content.value,
          readBySender: true,
        });
    if (result.isErr()) {
      refusal = result.error;
      return err(result.error);
    }
    await tx.scheduledMessages.delete(m.realmId, m.senderId, m.id);
    publishOnCommit(ctx, tx, { realmId: m.realmId, userIds: [m.senderId], event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: m.id } });
    return okResult('sent' as const);
  });
  if (sent.isOk() && sent.value !== 'refused') return sent.value;
  await markFailed(ctx, m, refusal);
  return 'failed';
}

/** Marks a row that could not be sent as failed; tells an active sender why (the reference's notice). */
async function markFailed(ctx: Ctx, m: ScheduledMessage, refusal: ApiError | undefined): Promise<void> {
  await ctx.storage.transaction(async (tx) => {
    const current = await tx.scheduledMessages.get(m.realmId, m.senderId, m.id);
    // Gone (deleted, or sent by another scheduler) or already failed: nothing to record.
    if (!current || current.failed) return okResult(undefined);
    const failed = await tx.scheduledMessages.update(m.realmId, m.senderId, m.id, { ...current, failed: true });
    if (failed) publishOnCommit(ctx, tx, { realmId: m.realmId, userIds: [m.senderId], event: { type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduledMessage(failed) } });
    // The reference tells the sender why, unless the sender or the realm is deactivated.
    const actor = refusal && (await actorIn(tx, m.realmId, m.senderId));
    if (failed && actor && refusal) {
      const notice = await sendNotificationBotMessage(ctx, tx, actor.realm, { to: { userIds: [m.senderId] }, content: failureNotice(m, refusal.msg) });
      if (notice.isErr()) ctx.logger.warn({ err: notice.error, scheduledMessageId: m.id }, 'could not notify of a failed scheduled message');
    }
    return okResult(undefined);
  });
}
