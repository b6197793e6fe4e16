/**
 * Reminders (the reference's actions/reminders.py): POST /reminders schedules a Notification
 * Bot DM to the caller about a message they can read; DELETE /reminders/{id} cancels it. A
 * reminder is a scheduled-message row of delivery type `remind`, delivered by the one durable
 * scheduler (scheduled/deliver-reminder.ts). Events go to the owner's queues only.
 */
import { err, ok } from 'neverthrow';
import { resourceNotFound } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { accessMessage } from '../messages/access.js';
import { normalizeContent } from '../messages/normalize.js';
import { type Actor, userOperation } from '../operation.js';
import { notInFuture } from '../scheduled/fields.js';
import { normalizeNote, reminderContent } from '../scheduled/reminder-content.js';
import { formatReminder, reminderSubject } from '../scheduled/reminder-fields.js';
import { CreateReminderParams, DeleteReminderParams } from '../schemas/reminders.js';
import { renderAs } from '../messages/render-as.js';
import { transactionAs } from '../transaction.js';

const doesNotExist = () => resourceNotFound('Reminder does not exist');

/** POST /reminders: the time first (as the reference's view), then the message, then the note. */
export const doCreateReminder = userOperation(CreateReminderParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (params.scheduled_delivery_timestamp * 1000 <= ctx.clock.now()) return err(notInFuture());
    const message = await accessMessage(tx, user, params.message_id);
    if (message.isErr()) return err(message.error);
    const note = params.note === undefined ? ok('') : normalizeNote(params.note, ctx.config);
    if (note.isErr()) return err(note.error);
    const text = reminderContent(realm, user, await reminderSubject(tx, message.value), note.value || null, ctx.config);
    const content = normalizeContent(text, ctx.config);
    if (content.isErr()) return err(content.error);
    const rendered = await renderAs(tx, realm, user, content.value, ctx.clock.now());
    const created = await tx.scheduledMessages.insert(realm.id, user.id, {
      type: 'private',
      streamId: null,
      recipientIds: [user.id],
      topic: '',
      content: content.value,
      renderedContent: rendered.html,
      deliveryTimestamp: params.scheduled_delivery_timestamp,
      failed: false,
      deliveryType: 'remind',
      reminderTargetMessageId: message.value.id,
      reminderNote: note.value || null,
    });
    if (!created) return err(doesNotExist());
    publishOnCommit(ctx, tx, { realmId: realm.id, userIds: [user.id], event: { type: 'reminders', op: 'add', reminders: [formatReminder(created)] } });
    return ok({ reminder_id: created.id });
  }),
);

/** DELETE /reminders/{reminder_id}: another user's reminder, or a scheduled message's ID, does not exist. */
export const doDeleteReminder = userOperation(DeleteReminderParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (!(await tx.scheduledMessages.delete(realm.id, user.id, params.reminder_id, 'remind'))) return err(doesNotExist());
    publishOnCommit(ctx, tx, { realmId: realm.id, userIds: [user.id], event: { type: 'reminders', op: 'remove', reminder_id: params.reminder_id } });
    return ok({});
  }),
);
