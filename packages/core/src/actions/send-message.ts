import { err, ok } from 'neverthrow';
import { checkDirectMessagePermission } from '../access/direct-message-rules.js';
import { ApiError } from '../errors.js';
import { normalizeContent } from '../messages/normalize.js';
import { channelTarget, directTarget } from '../messages/targets.js';
import { type Actor, userOperation } from '../operation.js';
import { SendMessageParams } from '../schemas/messages.js';
import type { WidgetContent } from '../widgets/content.js';
import { checkWidgetContent } from '../widgets/widget-content.js';
import { insertMessage } from '../messages/insert.js';
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
  const channel = params.type === 'stream' || params.type === 'channel';

  return transactionAs(ctx, requester, async (tx, actor) => {
    const { realm, user: sender } = actor;
    const target = channel
      ? await channelTarget(ctx, tx, sender, params.to, params.topic ?? params.subject)
      : await directTarget(tx, realm, sender, params.to);
    if (target.isErr()) return err(target.error);
    if (target.value.kind === 'private') {
      const allowed = await checkDirectMessagePermission(tx, realm, sender, target.value.participants);
      if (allowed.isErr()) return err(allowed.error);
    }

    // Checked once the addressee is, as the reference's check_message does.
    let widget: WidgetContent | undefined;
    if (params.widget_content !== undefined) {
      const checked = checkWidgetContent(params.widget_content);
      if (checked.isErr()) return err(checked.error);
      widget = checked.value;
    }

    const localEcho = params.queue_id && params.local_id ? { queueId: params.queue_id, localId: params.local_id } : undefined;
    const sent = await insertMessage(ctx, tx, realm, sender, target.value, content.value, {
      readBySender: params.read_by_sender !== false,
      localEcho,
      widget,
    });
    return ok(sent);
  });
});
