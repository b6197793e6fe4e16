/**
 * Delivering a due reminder (the reference's send_reminder): the Notification Bot DMs its
 * owner. The text is computed again while the owner can still read the message (the quote shows
 * the message as it is now); otherwise the stored text goes without its quote, so a reminder
 * never shows a message its owner can no longer read. Unlike a scheduled message it has no
 * late cutoff: a reminder that fell due while the server was down is still sent. The DM, the
 * row's removal and the `remove` event commit together. A deactivated owner or realm marks it
 * failed, silently (reminders send no failure notice, as in the reference).
 */
import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { publishOnCommit } from '../events/publish.js';
import { accessMessage } from '../messages/access.js';
import type { Realm, ScheduledMessage, Tx, User } from '../storage/types.js';
import { sendNotificationBotMessage } from '../system-bots/send.js';
import { quoteless, reminderContent } from './reminder-content.js';
import { reminderSubject } from './reminder-fields.js';

async function currentText(ctx: Ctx, tx: Tx, realm: Realm, user: User, m: ScheduledMessage): Promise<string> {
  const message = await accessMessage(tx, user, m.reminderTargetMessageId!);
  if (message.isErr()) return quoteless(m.content);
  return reminderContent(realm, user, await reminderSubject(tx, message.value), m.reminderNote, ctx.config);
}

/** Sends `m` (a `remind` row) if its owner and realm are active; true when sent. */
export async function deliverReminder(ctx: Ctx, m: ScheduledMessage): Promise<boolean> {
  let sent = false;
  await ctx.storage.transaction(async (tx) => {
    // Read again: a reminder deleted since the scan is not sent.
    const current = await tx.scheduledMessages.get(m.realmId, m.senderId, m.id, 'remind');
    if (!current || current.failed) return ok(undefined);
    const realm = await tx.realms.byId(m.realmId);
    const user = await tx.users.byId(m.realmId, m.senderId);
    const notice =
      realm && user?.isActive && !realm.deactivated
        ? await sendNotificationBotMessage(ctx, tx, realm, { to: { userIds: [user.id] }, content: await currentText(ctx, tx, realm, user, current) })
        : undefined;
    if (notice?.isOk()) {
      await tx.scheduledMessages.delete(m.realmId, m.senderId, m.id, 'remind');
      publishOnCommit(ctx, tx, { realmId: m.realmId, userIds: [m.senderId], event: { type: 'reminders', op: 'remove', reminder_id: m.id } });
      sent = true;
    } else {
      await tx.scheduledMessages.update(m.realmId, m.senderId, m.id, { ...current, failed: true });
    }
    return ok(undefined);
  });
  return sent;
}
