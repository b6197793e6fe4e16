import { err, ok, type Result } from 'neverthrow';
import { hasContentAccess, canPostToChannel } from '../access/channel-rules.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { apiEmail } from '../format/user.js';
import { renderMessage, type RenderContext } from '../markdown/index.js';
import { channelIndicator, directRecipients } from '../messages/addressee.js';
import { checkDirectMessagePermission } from '../access/direct-message-rules.js';
import { inaccessibleUsers } from '../access/user-access.js';
import { normalizeContent, normalizeNewTopic } from '../messages/normalize.js';
import { checkTopicCreation } from '../messages/topic-creation.js';
import { checkTopicsPolicy } from '../messages/topics-policy.js';
import { renderContextFor } from '../messages/render-context.js';
import { realmLinkifiers } from '../linkifiers/for-render.js';
import { type Actor, userOperation } from '../operation.js';
import { SendMessageParams } from '../schemas/messages.js';
import type { Realm, StoredUserGroup, Stream, Tx, User } from '../storage/types.js';
import { insertMessage } from './message-insert.js';
import { transactionAs } from './transaction.js';
import { checkWidgetContent } from '../widgets/widget-content.js';
import type { WidgetContent } from '../widgets/content.js';

export type Target =
  | { kind: 'stream'; stream: Stream; topic: string; recipientIds: number[] }
  | { kind: 'private'; participants: User[] };


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

/**
 * The channel and topic of a channel message. A channel the sender may not read answers exactly
 * as a missing one, so that private channels stay invisible.
 */
export async function channelTarget(ctx: Ctx, tx: Tx, sender: User, to: string, rawTopic: string | undefined): Promise<Result<Target, ApiError>> {
  const indicator = channelIndicator(to);
  if (indicator.isErr()) return err(indicator.error);
  let stream: Stream | undefined;
  let missing: ApiError;
  if (typeof indicator.value === 'number') {
    const id = indicator.value;
    stream = await tx.streams.byId(sender.realmId, id);
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${id}' does not exist`, { stream_id: id });
  } else {
    const name = indicator.value.trim();
    if (name === '') return err(badRequest("Channel name can't be empty."));
    stream = await tx.streams.byName(sender.realmId, name);
    missing = new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });
  }
  const subscription = stream ? await tx.subscriptions.get(sender.realmId, sender.id, stream.id) : undefined;
  if (!stream || !hasContentAccess(sender, stream, subscription?.active === true)) return err(missing);
  if (stream.isArchived) return err(badRequest(`Not authorized to send to channel '${stream.name}'`));
  if (!canPostToChannel(sender, stream)) return err(badRequest('You do not have permission to post in this channel.'));
  if (rawTopic === undefined) return err(badRequest('Missing topic'));
  const topic = normalizeNewTopic(rawTopic, ctx.config);
  if (topic.isErr()) return err(topic.error);
  const creation = await checkTopicCreation(tx, sender, stream, topic.value);
  if (creation.isErr()) return err(creation.error);
  const allowed = await checkTopicsPolicy(tx, stream, topic.value, true);
  if (allowed.isErr()) return err(allowed.error);
  const recipientIds = await tx.subscriptions.activeSubscriberIds(sender.realmId, stream.id);
  return ok({ kind: 'stream', stream, topic: topic.value, recipientIds });
}

/** The users a direct message's `to` may name: the named IDs only, or every user when it names emails. */
async function directCandidates(tx: Tx, realm: Realm, to: string): Promise<User[]> {
  const wanted = directRecipients(to);
  if (wanted.isOk() && 'ids' in wanted.value) return tx.users.list(realm.id, wanted.value.ids);
  return tx.users.list(realm.id);
}

/**
 * The participants of a direct message, the sender included. Emails are matched against the
 * email each user shows through the API, so a hidden real address cannot be probed. A guest
 * restricted by can_access_all_users_group may name only users they may access
 * (check_sender_can_access_recipients), checked before deactivation as in the reference.
 */
export async function directTarget(tx: Tx, realm: Realm, sender: User, to: string): Promise<Result<Target, ApiError>> {
  const recipients = directRecipients(to);
  if (recipients.isErr()) return err(recipients.error);
  const wanted = recipients.value;
  if (('ids' in wanted ? wanted.ids : wanted.emails).length === 0) return err(badRequest('Message must have recipients'));
  const users = await directCandidates(tx, realm, to);
  const found: User[] = [];
  if ('ids' in wanted) {
    for (const id of wanted.ids) {
      const user = users.find((u) => u.id === id);
      if (!user) return err(badRequest(`Invalid user ID ${id}`));
      found.push(user);
    }
  } else {
    for (const email of wanted.emails) {
      const user = users.find((u) => apiEmail(realm, u).toLowerCase() === email.toLowerCase());
      if (!user) return err(badRequest(`Invalid email '${email}'`));
      found.push(user);
    }
  }
  if ((await inaccessibleUsers(tx, realm, sender, found)).length > 0) {
    return err(badRequest('You do not have permission to access some of the recipients.'));
  }
  const participants = new Map<number, User>([[sender.id, sender]]);
  for (const user of found) {
    if (!user.isActive) return err(badRequest(`'${apiEmail(realm, user)}' is no longer using Zulip.`));
    participants.set(user.id, user);
  }
  return ok({ kind: 'private', participants: [...participants.values()].sort((a, b) => a.id - b.id) });
}

/**
 * Renders `content` as `sender` would send it at `nowMs` (only channels they may read are linked).
 *
 * The realm's users, channels and groups are read only when the renderer looks one up: most
 * messages mention nobody, and reading every user per send was most of a send's cost. The
 * first pass runs with those directories unloaded and records which were asked for; each
 * missed one is then read in full and the message rendered again, until a pass misses nothing.
 * The result is exactly the render with every directory loaded, since the final pass answered
 * every lookup from a complete directory.
 */
export async function renderAs(tx: Tx, realm: Realm, sender: User, content: string, nowMs: number) {
  const realmEmoji = await tx.realmEmoji.list(realm.id);
  const linkifiers = await realmLinkifiers(tx, realm.id);
  let users: User[] | undefined;
  let linkable: Stream[] | undefined;
  let userGroups: StoredUserGroup[] | undefined;
  for (;;) {
    const missed = { users: false, channels: false, userGroups: false };
    const full = renderContextFor(realm, users ?? [], linkable ?? [], new Date(nowMs), realmEmoji, linkifiers, userGroups ?? []);
    const context: RenderContext = {
      ...full,
      userByName: users ? full.userByName : () => ((missed.users = true), null),
      userById: users ? full.userById : () => ((missed.users = true), null),
      channelByName: linkable ? full.channelByName : () => ((missed.channels = true), null),
      groupByName: userGroups ? full.groupByName : () => ((missed.userGroups = true), null),
    };
    const rendered = renderMessage(content, context);
    if (!missed.users && !missed.channels && !missed.userGroups) return rendered;
    if (missed.users) users = await tx.users.list(realm.id);
    if (missed.channels) linkable = await linkableChannels(tx, realm, sender);
    if (missed.userGroups) userGroups = await tx.userGroups.list(realm.id);
  }
}

/** The channels `sender` may link to: unarchived ones whose content they may read. */
async function linkableChannels(tx: Tx, realm: Realm, sender: User): Promise<Stream[]> {
  const streams = await tx.streams.list(realm.id);
  const subscriptions = await tx.subscriptions.forUser(realm.id, sender.id);
  const subscribed = new Set(subscriptions.filter((s) => s.active).map((s) => s.streamId));
  return streams.filter((s) => !s.isArchived && hasContentAccess(sender, s, subscribed.has(s.id)));
}
