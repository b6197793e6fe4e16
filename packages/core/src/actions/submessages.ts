/**
 * POST /submessage (the reference's views/submessage.py and actions/submessage.py): a reader of
 * a message attaches a widget update (a vote, a new poll option, a task) to it. The message's
 * sender attaches the first one (a message becomes a widget only by its author); once it has,
 * anyone who can read the message may add more. Updates to a poll or a to-do list are checked
 * against the widget's data types; the `submessage` event goes to everyone who can read the
 * message, after commit.
 */
import { err, ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { cannotAttachSubmessage, invalidSubmessageJson, tooManySubmessages } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { accessMessage, invalidMessage } from '../messages/access.js';
import { Audiences } from '../messages/holders.js';
import { type Actor, userOperation } from '../operation.js';
import { SendSubmessageParams, SUBMESSAGES_PER_MESSAGE_MAX } from '../schemas/submessages.js';
import type { Message, Realm, Stream, Submessage, Tx } from '../storage/types.js';
import { checkWidgetData, widgetTypeOf } from '../widgets/submessage-data.js';
import { applyReactionPolicy } from '../messages/automatic-topic-policy.js';
import { transactionAs } from '../transaction.js';

/** Parsed JSON, or undefined when `text` is not JSON. */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** POST /submessage: answers `{}` once the submessage is stored. */
export const doSendSubmessage = userOperation(SendSubmessageParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessMessage(tx, actor.user, params.message_id);
    if (access.isErr()) return err(access.error);
    const message = access.value;
    const stream = message.streamId === null ? undefined : await tx.streams.byId(actor.realm.id, message.streamId);
    // A submessage modifies the message: not in an archived channel (access_message's is_modifying_message).
    if (stream?.isArchived) return err(invalidMessage());
    const isAuthor = message.senderId === actor.user.id;
    if (!isAuthor && (await tx.submessages.first(actor.realm.id, message.id))?.senderId !== message.senderId) {
      return err(cannotAttachSubmessage());
    }
    const data = parseJson(params.content);
    if (!data) return err(invalidSubmessageJson());
    const widget = widgetTypeOf((await tx.submessages.first(actor.realm.id, message.id, 'widget'))?.content);
    const checked = checkWidgetData(widget, data.value, isAuthor);
    if (checked.isErr()) return err(checked.error);

    if ((await tx.submessages.count(actor.realm.id, message.id)) >= SUBMESSAGES_PER_MESSAGE_MAX) {
      return err(tooManySubmessages(SUBMESSAGES_PER_MESSAGE_MAX));
    }
    const stored = await tx.submessages.insert(actor.realm.id, {
      messageId: message.id,
      senderId: actor.user.id,
      msgType: params.msg_type,
      content: params.content,
    });
    // accessMessage found the message in the actor's realm within this transaction.
    if (!stored) throw new Error(`submessage: message ${message.id} vanished inside its transaction`);
    // Voting or adding a task is participating, as reacting is: it may follow or unmute the topic.
    if (stream) await applyReactionPolicy(ctx, tx, actor.user, stream, message.topic);
    await announceSubmessage(ctx, tx, actor.realm, message, stream, stored);
    return ok({});
  }),
);

/**
 * The `submessage` event (the reference's do_add_submessage), to everyone who can read the
 * message: copy holders and the channel's subscribers who read its history. The reference
 * sends it to copy holders only; a subscriber viewing the poll without a copy would miss votes.
 */
async function announceSubmessage(ctx: Ctx, tx: Tx, realm: Realm, message: Message, stream: Stream | undefined, submessage: Submessage): Promise<void> {
  const audience = await (await Audiences.load(tx, realm.id)).of(message, stream);
  publishOnCommit(ctx, tx, {
    realmId: realm.id,
    userIds: [...audience.keys()],
    event: {
      type: 'submessage',
      msg_type: submessage.msgType,
      message_id: message.id,
      submessage_id: submessage.id,
      sender_id: submessage.senderId,
      content: submessage.content,
    },
  });
}
