/**
 * The send path's one call into outgoing webhooks: which outgoing webhook bots a new message
 * reaches (the reference's get_service_bot_events), and their deliveries, queued after commit.
 */
import type { Target } from '../../messages/targets.js';
import type { Ctx } from '../../context.js';
import { realmLinkifiers, topicLinksWith } from '../../linkifiers/for-render.js';
import { formatMessage } from '../../messages/format.js';
import { channelMessageUrl, directMessageUrl } from '../../messages/urls.js';
import type { Message, Realm, Tx, User } from '../../storage/types.js';
import { botProfiles } from '../profile.js';
import type { DeliveryJob, Trigger } from './job.js';
import { enqueueDeliveries } from './runner.js';

/**
 * Queues a delivery to each active outgoing webhook bot that `message` mentions (channel
 * messages) or that takes part in it (direct messages). Messages sent by bots trigger nothing,
 * so that bots cannot answer each other forever. Costs nothing more when no such bot is involved.
 */
export async function queueOutgoingWebhooks(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  sender: User,
  target: Target,
  message: Message,
  mentionedUserIds: ReadonlySet<number>,
): Promise<void> {
  if (sender.isBot) return;
  const candidates =
    target.kind === 'private'
      ? target.participants
      : mentionedUserIds.size > 0
        ? await tx.users.list(realm.id, [...mentionedUserIds])
        : [];
  const bots = candidates.filter((u) => u.isBot && u.botType === 3 && u.isActive && !u.isSystemBot && u.id !== sender.id);
  if (bots.length === 0) return;
  const profiles = await botProfiles(tx, realm.id, bots.map((b) => b.id));
  const served = bots.filter((b) => profiles.get(b.id)?.service);
  if (served.length === 0) return;

  const payload = await payloadMessage(tx, realm, sender, target, message);
  const trigger: Trigger = target.kind === 'private' ? 'direct_message' : 'mention';
  const messageUrl =
    target.kind === 'stream'
      ? channelMessageUrl(realm, target.stream, target.topic, message.id)
      : directMessageUrl(realm, target.participants.map((u) => u.id), message.id);
  const jobs: DeliveryJob[] = served.map((bot) => ({ realmId: realm.id, botId: bot.id, trigger, message: payload, messageUrl, failedTries: 0 }));
  tx.afterCommit(() => enqueueDeliveries(ctx, jobs));
}

/** The message as webhooks get it: GET /messages' format with raw Markdown, plus its HTML. */
async function payloadMessage(tx: Tx, realm: Realm, sender: User, target: Target, message: Message): Promise<DeliveryJob['message']> {
  const users = new Map<number, User>([[sender.id, sender]]);
  if (target.kind === 'private') for (const u of target.participants) users.set(u.id, u);
  const dmConversationIds = new Map<string, number>();
  if (message.dmKey) dmConversationIds.set(message.dmKey, await tx.messages.dmConversationId(realm.id, message.dmKey));
  const topicLinks = topicLinksWith(await realmLinkifiers(tx, realm.id));
  const record = formatMessage(
    message,
    {
      realm,
      users,
      streamNames: new Map(target.kind === 'stream' ? [[target.stream.id, target.stream.name]] : []),
      dmConversationIds,
      applyMarkdown: false,
      clientGravatar: false,
      emptyTopicName: true,
      topicLinks,
    },
    [],
    [],
  );
  return { ...record, rendered_content: message.renderedContent, id: message.id, type: message.type, content: message.content };
}
