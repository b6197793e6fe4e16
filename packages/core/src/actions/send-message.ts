import { err } from 'neverthrow';
import { ApiError } from '../errors.js';
import { normalizeContent } from '../messages/normalize.js';
import { sendMessageIn } from '../messages/send.js';
import { type Actor, userOperation } from '../operation.js';
import { SendMessageParams } from '../schemas/messages.js';
import { transactionAs } from '../transaction.js';

/**
 * POST /messages (SHAPES.md 6.2): a channel message to a topic, or a direct message. Each
 * recipient gets a copy with flags computed from the content (mentions, wildcards), and a
 * `message` event after commit.
 */
export const doSendMessage = userOperation(SendMessageParams, async (ctx, requester: Actor, params) => {
  if (params.topic !== undefined && params.subject !== undefined) {
    return err(new ApiError('REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", { var_name1: 'topic', var_name2: 'subject' }));
  }
  const content = normalizeContent(params.content, ctx.config);
  if (content.isErr()) return err(content.error);
  const request = {
    channel: params.type === 'stream' || params.type === 'channel',
    to: params.to,
    topic: params.topic ?? params.subject,
    content: content.value,
    widgetContent: params.widget_content,
    localEcho: params.queue_id && params.local_id ? { queueId: params.queue_id, localId: params.local_id } : undefined,
    readBySender: params.read_by_sender !== false,
  };
  return transactionAs(ctx, requester, (tx, actor) => sendMessageIn(ctx, tx, actor, request));
});
