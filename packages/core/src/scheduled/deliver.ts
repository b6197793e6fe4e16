/**
 * The scheduler's core: sends every due scheduled message through POST /messages' own
 * operation as its sender, so a delivery is checked exactly like a send made now (archived
 * channel, deactivated recipient or sender…). A sent message is removed (`remove` event); a
 * refused one is kept with `failed: true` (`update` event). Reminders (`remind` rows) go
 * through deliverReminder instead. Callers arm one timer for
 * `nextDue`; messages that fell due while the server was down go out at the first call.
 */
import { ok as okResult } from 'neverthrow';
import { doSendMessage } from '../actions/send-message.js';
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
  for (const message of due) (await deliver(ctx, message)) ? report.sent.push(message.id) : report.failed.push(message.id);
  report.nextDue = await ctx.storage.read((tx) => tx.scheduledMessages.nextDue());
  return report;
}

async function deliver(ctx: Ctx, m: ScheduledMessage): Promise<boolean> {
  // Reminders are the Notification Bot's DMs to their owner, not the owner's own sends.
  if (m.deliveryType === 'remind') return deliverReminder(ctx, m);
  const actor = await ctx.storage.read(async (tx) => {
    const realm = await tx.realms.byId(m.realmId);
    const user = await tx.users.byId(m.realmId, m.senderId);
    return realm && user && user.isActive && !realm.deactivated ? { realm, user } : undefined;
  });
  const to = m.type === 'stream' ? String(m.streamId) : JSON.stringify(m.recipientIds);
  const sent = actor ? await doSendMessage(ctx, actor, { type: m.type, to, topic: m.topic, content: m.content }) : undefined;
  const ok = sent?.isOk() === true;
  // Recorded after the send's own commit: a crash in between may send it twice rather than lose it.
  await ctx.storage.transaction(async (tx) => {
    if (ok) {
      if (await tx.scheduledMessages.delete(m.realmId, m.senderId, m.id)) {
        publishOnCommit(ctx, tx, { realmId: m.realmId, userIds: [m.senderId], event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: m.id } });
      }
      return okResult(undefined);
    }
    const failed = await tx.scheduledMessages.update(m.realmId, m.senderId, m.id, { ...m, failed: true });
    if (failed) publishOnCommit(ctx, tx, { realmId: m.realmId, userIds: [m.senderId], event: { type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduledMessage(failed) } });
    // The reference tells the sender why, unless the sender or the realm is deactivated.
    if (failed && actor && sent?.isErr()) {
      const notice = await sendNotificationBotMessage(ctx, tx, actor.realm, { to: { userIds: [m.senderId] }, content: failureNotice(m, sent.error.msg) });
      if (notice.isErr()) ctx.logger.warn({ err: notice.error, scheduledMessageId: m.id }, 'could not notify of a failed scheduled message');
    }
    return okResult(undefined);
  });
  return ok;
}
