import { err, ok } from 'neverthrow';
import { badRequest, resourceNotFound } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../messages/normalize.js';
import { type Actor, userOperation } from '../operation.js';
import { checkScheduled, formatScheduledMessage, notInFuture } from '../scheduled/fields.js';
import { CreateScheduledMessageParams, DeleteScheduledMessageParams, EditScheduledMessageParams } from '../schemas/scheduled-messages.js';
import { transactionAs } from '../transaction.js';

const doesNotExist = () => resourceNotFound('Scheduled message does not exist');
/** The stored type: the reference answers `stream`/`private` whatever alias was sent. */
const storedType = (t: string) => (t === 'stream' || t === 'channel' ? 'stream' : 'private');

/** POST /scheduled_messages: validated like a send; the `add` event goes to the owner only. */
export const doCreateScheduledMessage = userOperation(CreateScheduledMessageParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (params.scheduled_delivery_timestamp * 1000 <= ctx.clock.now()) return err(notInFuture());
    const type = storedType(params.type);
    const checked = await checkScheduled(ctx, tx, realm, user, {
      type,
      to: JSON.stringify(params.to),
      topic: params.topic,
      content: params.content,
      deliveryTimestamp: params.scheduled_delivery_timestamp,
    });
    if (checked.isErr()) return err(checked.error);
    const created = await tx.scheduledMessages.insert(realm.id, user.id, checked.value);
    if (!created) return err(doesNotExist());
    publishOnCommit(ctx, tx, { realmId: realm.id, userIds: [user.id], event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [formatScheduledMessage(created)] } });
    return ok({ scheduled_message_id: created.id });
  }),
);

/**
 * PATCH /scheduled_messages/{id} (API.md 4.3): unchanged fields keep their values and the whole
 * message is re-validated as a send; a failed message needs a new delivery time, and a
 * successful edit clears `failed`.
 */
export const doEditScheduledMessage = userOperation(EditScheduledMessageParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    const changes = [params.type, params.to, params.content, params.topic, params.scheduled_delivery_timestamp];
    if (changes.every((value) => value === undefined)) return err(badRequest('Nothing to change'));
    // The reference checks a new delivery time before it looks the message up.
    const when = params.scheduled_delivery_timestamp;
    if (when !== undefined && when * 1000 <= ctx.clock.now()) return err(notInFuture());
    const current = await tx.scheduledMessages.get(realm.id, user.id, params.scheduled_message_id);
    if (!current) return err(doesNotExist());
    // A failed message needs a new delivery time (API.md 3).
    if (when === undefined && current.failed) return err(notInFuture());
    const type = params.type === undefined ? current.type : storedType(params.type);
    if (type !== current.type) {
      if (params.to === undefined) return err(badRequest('Recipient required when updating type of scheduled message.'));
      if (type === 'stream') {
        const topic = params.topic?.trim();
        if (topic === undefined || topic === '' || topic === '(no topic)' || topic === EMPTY_TOPIC_DISPLAY_NAME) {
          return err(badRequest('Topic required when updating scheduled message type to channel.'));
        }
      }
    }
    const to = params.to !== undefined ? JSON.stringify(params.to) : (current.type === 'stream' ? String(current.streamId) : JSON.stringify(current.recipientIds));
    const checked = await checkScheduled(ctx, tx, realm, user, {
      type,
      to,
      topic: type === 'stream' ? (params.topic ?? current.topic) : undefined,
      content: params.content ?? current.content,
      deliveryTimestamp: when ?? current.deliveryTimestamp,
    });
    if (checked.isErr()) return err(checked.error);
    const updated = await tx.scheduledMessages.update(realm.id, user.id, current.id, checked.value);
    if (!updated) return err(doesNotExist());
    publishOnCommit(ctx, tx, { realmId: realm.id, userIds: [user.id], event: { type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduledMessage(updated) } });
    return ok({});
  }),
);

/** DELETE /scheduled_messages/{id}. */
export const doDeleteScheduledMessage = userOperation(DeleteScheduledMessageParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { realm, user }) => {
    if (!(await tx.scheduledMessages.delete(realm.id, user.id, params.scheduled_message_id))) return err(doesNotExist());
    publishOnCommit(ctx, tx, { realmId: realm.id, userIds: [user.id], event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: params.scheduled_message_id } });
    return ok({});
  }),
);
