import { err, ok, type Result } from 'neverthrow';
import { checkDirectMessagePermission } from '../access/direct-message-rules.js';
import type { Ctx } from '../context.js';
import type { ApiError } from '../errors.js';
import type { Actor } from '../operation.js';
import type { Tx } from '../storage/types.js';
import type { WidgetContent } from '../widgets/content.js';
import { checkWidgetContent } from '../widgets/widget-content.js';
import { insertMessage, type SentMessage } from './insert.js';
import { channelTarget, directTarget } from './targets.js';

/** A send as POST /messages describes it, once its content is normalized. */
export interface SendRequest {
  channel: boolean;
  to: string;
  topic: string | undefined;
  /** Normalized (messages/normalize.ts). */
  content: string;
  widgetContent?: string;
  localEcho?: { queueId: string; localId: string };
  readBySender: boolean;
}

/**
 * A send inside the caller's transaction: resolves the addressee, checks the actor may write
 * to it, and inserts the message (events after commit). POST /messages runs it in a transaction
 * of its own; the scheduler runs it in the transaction that claims the scheduled message, so a
 * scheduled message is sent and removed together or not at all.
 */
export async function sendMessageIn(ctx: Ctx, tx: Tx, actor: Actor, request: SendRequest): Promise<Result<SentMessage, ApiError>> {
  const { realm, user: sender } = actor;
  const target = request.channel
    ? await channelTarget(ctx, tx, realm, sender, request.to, request.topic)
    : await directTarget(tx, realm, sender, request.to);
  if (target.isErr()) return err(target.error);
  if (target.value.kind === 'private') {
    const allowed = await checkDirectMessagePermission(tx, realm, sender, target.value.participants);
    if (allowed.isErr()) return err(allowed.error);
  }

  // Checked once the addressee is, as the reference's check_message does.
  let widget: WidgetContent | undefined;
  if (request.widgetContent !== undefined) {
    const checked = checkWidgetContent(request.widgetContent);
    if (checked.isErr()) return err(checked.error);
    widget = checked.value;
  }
  return ok(await insertMessage(ctx, tx, realm, sender, target.value, request.content, { readBySender: request.readBySender, localEcho: request.localEcho, widget }));
}
