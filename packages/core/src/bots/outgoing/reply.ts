/**
 * Messages an outgoing webhook bot sends: the service's answer (or a failure notice) where the
 * triggering message was, and notices to its owner. Like the reference's send_response_message,
 * they skip the channel access check (the bot answers where it was mentioned) and come from the
 * "OutgoingWebhookResponse" client. A message sent by a bot never triggers a bot, so an answer
 * cannot start a loop.
 */
import { err, ok, type Result } from 'neverthrow';
import { checkDirectMessagePermission } from '../../access/direct-message-rules.js';
import { insertMessage } from '../../messages/insert.js';
import type { Target } from '../../messages/targets.js';
import type { Ctx } from '../../context.js';
import { type ApiError, badRequest } from '../../errors.js';
import { normalizeContent, normalizeNewTopic } from '../../messages/normalize.js';
import type { Realm, Tx, User } from '../../storage/types.js';
import type { DeliveryJob } from './job.js';

/** Where a bot's message goes: back to the triggering conversation, or to its owner. */
export type ReplyAddress = { to: 'conversation' } | { to: 'owner' };

/** Sends `content` from the job's bot; an error when the bot or the place is gone. */
export function sendAsBot(ctx: Ctx, job: DeliveryJob, address: ReplyAddress, content: string): Promise<Result<number, ApiError>> {
  return ctx.storage.transaction(async (tx) => {
    const realm = await tx.realms.byId(job.realmId);
    const bot = await tx.users.byId(job.realmId, job.botId);
    if (!realm || realm.deactivated || !bot?.isActive) return err(badRequest('The bot is no longer active'));
    const normalized = normalizeContent(content, ctx.config);
    if (normalized.isErr()) return err(normalized.error);
    const target = address.to === 'owner' ? await ownerTarget(tx, realm, bot) : await conversationTarget(ctx, tx, realm, bot, job);
    if (target.isErr()) return err(target.error);
    const sent = await insertMessage(ctx, tx, realm, bot, target.value, normalized.value, { sendingClient: 'OutgoingWebhookResponse' });
    return ok(sent.id);
  });
}

async function conversationTarget(ctx: Ctx, tx: Tx, realm: Realm, bot: User, job: DeliveryJob): Promise<Result<Target, ApiError>> {
  const m = job.message;
  if (m.type === 'stream') {
    const stream = await tx.streams.byId(realm.id, Number(m.stream_id));
    if (!stream || stream.isArchived) return err(badRequest(`Channel with ID '${String(m.stream_id)}' does not exist`));
    const topic = normalizeNewTopic(String(m.subject), ctx.config);
    if (topic.isErr()) return err(topic.error);
    return ok({ kind: 'stream', stream, topic: topic.value, recipientIds: await tx.subscriptions.activeSubscriberIds(realm.id, stream.id) });
  }
  const ids = (m.display_recipient as { id: number }[]).map((r) => r.id);
  const participants = await tx.users.list(realm.id, [...new Set([...ids, bot.id])]);
  const gone = participants.find((u) => !u.isActive);
  if (gone) return err(badRequest(`'${gone.deliveryEmail}' is no longer using Zulip.`));
  const allowed = await checkDirectMessagePermission(tx, realm, bot, participants);
  if (allowed.isErr()) return err(allowed.error);
  return ok({ kind: 'private', participants });
}

async function ownerTarget(tx: Tx, realm: Realm, bot: User): Promise<Result<Target, ApiError>> {
  const owner = bot.botOwnerId === null ? undefined : await tx.users.byId(realm.id, bot.botOwnerId);
  if (!owner?.isActive) return err(badRequest('The bot has no active owner'));
  return ok({ kind: 'private', participants: [bot, owner].sort((a, b) => a.id - b.id) });
}
