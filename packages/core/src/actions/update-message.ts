import { withRecursiveMembers } from '../access/group-membership.js';
import { createHash } from 'node:crypto';
import { err, ok, type Result } from 'neverthrow';
import { canPostToChannel, hasContentAccess } from '../access/channel-rules.js';
import { accessStreamById } from '../access/channels.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, ApiError as Failure, badRequest, widgetsCannotBeEdited } from '../errors.js';
import { renderMessage, topicLinks } from '../markdown/index.js';
import { accessMessage } from '../messages/access.js';
import { contentFlags, topicSenders } from '../messages/content-flags.js';
import { announceDeletion } from '../messages/delete-events.js';
import { refreshFirstMessageIds } from '../messages/first-message.js';
import { CONTENT_FLAG_MASK } from '../messages/flags.js';
import { Audiences, type Holders } from '../messages/holders.js';
import { normalizeContent, normalizeNewTopic } from '../messages/normalize.js';
import { checkTopicsPolicy } from '../messages/topics-policy.js';
import { checkChannelMove, checkContentEdit, checkTopicMove } from '../messages/permissions.js';
import { checkTopicCreation } from '../messages/topic-creation.js';
import { renderContextFor } from '../messages/render-context.js';
import { realmLinkifiers } from '../linkifiers/for-render.js';
import { announceMessageUpdate, type MessageChange } from '../messages/update-events.js';
import { type Actor, userOperation } from '../operation.js';
import { readableBy } from '../queries/messages.js';
import { UpdateMessageParams } from '../schemas/message-edit.js';
import type { EditHistoryEntry, Message, MessagePatch, Realm, Stream, Tx, User } from '../storage/types.js';
import { checkMoveTimeLimit, isResolveChange, messagesToMove, moveCopies } from '../messages/moves.js';
import { transactionAs } from '../transaction.js';
import { type AttachmentRecord, formatAttachment } from '../uploads/attachment-record.js';
import { relinkUploads } from '../uploads/claim.js';
import { moveUserTopics, planUserTopicMove } from '../messages/user-topic-moves.js';
import { sendMoveNotices } from '../system-bots/move-notices.js';
import { applyMovePolicy } from '../messages/automatic-topic-policy.js';
import { schedulePushForEdit } from '../push/edits.js';

type Params = (typeof UpdateMessageParams)['TYPE'];

/** What the request changes, after normalizing: undefined fields change nothing. */
interface EditRequest {
  content?: string;
  topic?: string;
  stream?: Stream;
}

/**
 * PATCH /messages/{message_id} (SHAPES.md 6.3): edits the content of one's own message, and
 * moves messages to another topic or channel (propagate_mode), with the reference's
 * permissions and time limits. Records edit history and sends update_message events to the
 * holders of the messages (and delete_message to those a channel move takes them from).
 */
export const doUpdateMessage = userOperation(UpdateMessageParams, async (ctx, requester: Actor, params) => {
  if (params.topic !== undefined && params.subject !== undefined) {
    return err(new Failure('REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", { var_name1: 'topic', var_name2: 'subject' }));
  }
  return transactionAs(ctx, requester, async (tx, actor) => {
    const access = await accessMessage(tx, actor.user, params.message_id);
    if (access.isErr()) return err(access.error);
    const target = access.value;
    const now = unixSeconds(ctx.clock);
    const request = await checkRequest(ctx, tx, actor, target, params, now);
    if (request.isErr()) return err(request.error);
    return applyEdit(ctx, tx, actor, target, params, request.value, now);
  });
});

async function checkRequest(ctx: Ctx, tx: Tx, { user, realm }: Actor, target: Message, params: Params, now: number): Promise<Result<EditRequest, ApiError>> {
  if (params.prev_content_sha256 !== undefined && createHash('sha256').update(target.content).digest('hex') !== params.prev_content_sha256) {
    return err(badRequest("'prev_content_sha256' value does not match the expected value."));
  }
  const request: EditRequest = {};
  if (params.content !== undefined) {
    const allowed = checkContentEdit(realm, user, target, now);
    if (allowed.isErr()) return err(allowed.error);
    // Emptying a message is how clients "delete" its text, as in the reference.
    const content = normalizeContent(params.content.trim() === '' ? '(deleted)' : params.content, ctx.config);
    if (content.isErr()) return err(content.error);
    request.content = content.value;
  }
  const rawTopic = params.topic ?? params.subject;
  if (rawTopic !== undefined) {
    const topic = normalizeNewTopic(rawTopic, ctx.config);
    if (topic.isErr()) return err(topic.error);
    if (target.type === 'private' || topic.value !== target.topic) request.topic = topic.value;
  }
  // FL 509: the message's own channel is not a move.
  const streamId = params.stream_id !== undefined && params.stream_id !== target.streamId ? params.stream_id : undefined;

  if (request.content === undefined && request.topic === undefined && streamId === undefined) return err(badRequest('Nothing to change'));
  if (target.type === 'private') {
    if (streamId !== undefined) return err(badRequest('Direct messages cannot be moved to channels.'));
    if (request.topic !== undefined) return err(badRequest('Direct messages cannot have topics.'));
  }
  if (params.propagate_mode !== 'change_one' && request.topic === undefined && streamId === undefined) {
    return err(badRequest('Invalid propagate_mode without topic edit'));
  }
  if (request.content !== undefined && streamId !== undefined) return err(badRequest('Cannot change message content while changing channel'));
  // A poll or to-do list keeps its content: its submessages were made against it (the reference's is_widget_message).
  if (request.content !== undefined && (await tx.submessages.first(realm.id, target.id))) return err(widgetsCannotBeEdited());
  if (target.type === 'private') return ok(request);

  const from = (await tx.streams.byId(user.realmId, target.streamId!))!;
  if (request.topic !== undefined) {
    // The channel-level permission of a channel the messages move to counts too, where the mover can reach it.
    const to = streamId === undefined ? undefined : await accessStreamById(tx, user, streamId);
    const allowed = checkTopicMove(realm, user, from, streamId === undefined && isResolveChange(target.topic, request.topic), to?.isOk() ? to.value.stream : from);
    if (allowed.isErr()) return err(allowed.error);
  }
  if (streamId !== undefined) {
    const allowed = checkChannelMove(realm, user, from);
    if (allowed.isErr()) return err(allowed.error);
    const to = await accessStreamById(tx, user, streamId);
    if (to.isErr()) return err(to.error);
    if (!canPostToChannel(user, to.value.stream)) return err(badRequest('You do not have permission to post in this channel.'));
    request.stream = to.value.stream;
  }
  const destination = request.stream ?? from;
  // Resolving and unresolving never start a topic (check_update_message).
  const resolving = request.topic !== undefined && isResolveChange(target.topic, request.topic);
  if ((request.stream !== undefined || request.topic !== undefined) && !resolving) {
    const creation = await checkTopicCreation(tx, user, destination, request.topic ?? target.topic);
    if (creation.isErr()) return err(creation.error);
  }
  const allowed = await checkTopicsPolicy(tx, destination, request.topic ?? target.topic, request.topic !== undefined || request.stream !== undefined);
  if (allowed.isErr()) return err(allowed.error);
  return ok(request);
}

/** PATCH /messages/{id}'s answer: the uploads whose last link a content edit removed (SHAPES.md 6.3). */
export interface UpdateMessageResponse {
  detached_uploads: AttachmentRecord[];
}

async function applyEdit(
  ctx: Ctx,
  tx: Tx,
  actor: Actor,
  target: Message,
  params: Params,
  request: EditRequest,
  now: number,
): Promise<Result<UpdateMessageResponse, ApiError>> {
  const { realm, user } = actor;
  const moving = request.topic !== undefined || request.stream !== undefined;
  const readable = await readableBy(tx, user);
  const moved = moving ? await messagesToMove(tx, realm, user, target, params.propagate_mode, readable) : [target];
  // For the move notices: did the mover take every message of the topic they could read?
  const visibleInTopic = moving && params.propagate_mode !== 'change_all' ? (await messagesToMove(tx, realm, user, target, 'change_all', readable)).length : moved.length;
  if (moving) {
    const limit = checkMoveTimeLimit(realm, user, target, moved, params.propagate_mode, { topic: request.topic !== undefined, channel: request.stream !== undefined }, now);
    if (limit.isErr()) return err(limit.error);
  }
  const streams = new Map(readable.allStreams.map((s) => [s.id, s]));
  const from = target.streamId === null ? null : streams.get(target.streamId)!;
  const where = from && moving ? { from, fromTopic: target.topic, to: request.stream ?? from, toTopic: request.topic ?? target.topic } : null;
  const topicMove = where ? await planUserTopicMove(tx, realm, user, readable, moved, params.propagate_mode === 'change_all', where) : null;
  const audiences = await Audiences.load(tx, realm.id);
  const linkifiers = await realmLinkifiers(tx, realm.id);
  const before = await audiences.byUser(moved, streams);

  const change: MessageChange = { editorId: user.id, timestamp: now, messageId: target.id, messageIds: moved.map((m) => m.id), stream: from };
  let targetPatch: MessagePatch = {};
  // Files whose last link this content edit removed (SHAPES.md 6.3).
  let detachedUploads: AttachmentRecord[] = [];
  // History entries name only what changed (SHAPES.md 5.1); the target's also has its content.
  const moveEntry: EditHistoryEntry = { user_id: user.id, timestamp: now };
  const targetEntry: EditHistoryEntry = { ...moveEntry };
  if (request.content !== undefined) {
    const realmEmoji = await tx.realmEmoji.list(realm.id);
    const userGroups = await tx.userGroups.list(realm.id);
    const context = renderContextFor(realm, [...audiences.users.values()], linkableChannels(readable, user), new Date(ctx.clock.now()), realmEmoji, linkifiers, userGroups);
    const rendered = renderMessage(request.content, context);
    const uploads = await relinkUploads(ctx, tx, user, target, rendered.attachmentPathIds);
    detachedUploads = uploads.detached.map((a) => formatAttachment(a, []));
    change.content = { orig: target.content, origRendered: target.renderedContent, content: request.content, rendered: rendered.html, isMeMessage: rendered.isMeMessage };
    Object.assign(targetEntry, { prev_content: target.content, prev_rendered_content: target.renderedContent });
    targetPatch = {
      content: request.content,
      renderedContent: rendered.html,
      hasLink: rendered.hasLink,
      hasImage: rendered.hasImage,
      hasAttachment: uploads.hasAttachment,
      isMeMessage: rendered.isMeMessage,
      lastEditTime: now,
    };
    const recipients = await tx.messages.recipients(target.id);
    const copies = recipients.map((c) => c.userId);
    const participants = from && rendered.wildcards.topic ? await topicSenders(tx, realm, from.id, target.topic) : new Set<number>();
    const alert = { content: request.content, words: await tx.alertWords.forUsers(realm.id, copies) };
    const groups = withRecursiveMembers(userGroups, await tx.users.list(realm.id));
    const flags = contentFlags(rendered, copies, { channel: from !== null, senderId: target.senderId, topicParticipants: participants, alert, userGroups: groups });
    await tx.messages.replaceFlags(target.id, CONTENT_FLAG_MASK, flags);
    schedulePushForEdit(ctx, tx, {
      realm,
      messageId: target.id,
      editorId: user.id,
      priorFlags: new Map(recipients.map((r) => [r.userId, r.flags])),
      flagsByUser: flags,
      mentionedUserIds: rendered.mentionedUserIds,
      mentionedGroups: groups.filter((g) => rendered.mentionedGroupIds.has(g.id)),
    });
  }
  if (moving) {
    const topicChanged = request.topic !== undefined;
    change.move = {
      propagateMode: params.propagate_mode,
      origTopic: target.topic,
      ...(topicChanged ? { topic: { name: request.topic!, links: topicLinks(request.topic!, linkifiers) } } : {}),
      ...(request.stream ? { newStreamId: request.stream.id } : {}),
    };
    if (request.stream) {
      Object.assign(moveEntry, { prev_stream: from!.id, stream: request.stream.id });
      Object.assign(targetEntry, { prev_stream: from!.id, stream: request.stream.id });
    }
  }
  // Resolving or unresolving a topic is not a move for last_moved_timestamp.
  const countsAsMove = moving && (request.stream !== undefined || !isResolveChange(target.topic, request.topic!));
  for (const message of moved) {
    const patch: MessagePatch = message.id === target.id ? { ...targetPatch } : {};
    if (request.topic !== undefined) patch.topic = request.topic;
    if (request.stream) patch.streamId = request.stream.id;
    if (countsAsMove) patch.lastMovedTime = now;
    // Each message's own previous topic: a case-insensitive match may differ from the target's.
    const topicEntry = request.topic !== undefined ? { prev_topic: message.topic, topic: request.topic } : {};
    patch.editHistory = [{ ...(message.id === target.id ? targetEntry : moveEntry), ...topicEntry }, ...message.editHistory];
    await tx.messages.update(realm.id, message.id, patch);
  }
  if (request.stream) await moveCopies(tx, realm, audiences.users, change.messageIds, request.stream);
  if (topicMove) await moveUserTopics(ctx, tx, realm, topicMove, now);
  if (topicMove && !topicMove.movedAll) {
    // A partial move may start a topic for the target's sender (resolving included, as in the reference).
    const sender = await tx.users.byId(realm.id, target.senderId);
    if (sender) await applyMovePolicy(ctx, tx, sender, { stream: topicMove.to, topic: topicMove.toTopic, targetId: target.id, movedIds: change.messageIds });
  }

  const after = await tx.messages.byIds(realm.id, change.messageIds);
  announceMessageUpdate(ctx, tx, realm, change, await holdersAfter(audiences, after, streams, target.id));
  if (request.stream) {
    await announceLostAccess(ctx, tx, realm, moved, before, await audiences.byUser(after, streams));
    await refreshFirstMessageIds(ctx, tx, realm, [from!.id, request.stream.id]);
  }
  if (moving) {
    const notices = await sendMoveNotices(ctx, tx, realm, {
      mover: user,
      targetId: target.id,
      movedIds: change.messageIds,
      movedAllVisible: moved.length === visibleInTopic,
      from: { stream: from!, topic: target.topic },
      to: { stream: request.stream ?? from!, topic: request.topic ?? target.topic },
      topicEdited: request.topic !== undefined,
      contentEdited: request.content !== undefined,
      sendToOldThread: params.send_notification_to_old_thread ?? false,
      sendToNewThread: params.send_notification_to_new_thread ?? true,
      readable,
    });
    if (notices.isErr()) return err(notices.error);
  }
  return ok({ detached_uploads: detachedUploads });
}

/** Channels the editor may link to in the new content: the ones they may read, not archived. */
function linkableChannels(readable: Awaited<ReturnType<typeof readableBy>>, user: User): Stream[] {
  return readable.visibleStreams.filter((s) => !s.isArchived && hasContentAccess(user, s, true));
}

/** Every user holding a changed message afterwards, with their flags on the target (null: no copy of it). */
async function holdersAfter(audiences: Audiences, messages: readonly Message[], streams: ReadonlyMap<number, Stream>, targetId: number): Promise<Holders> {
  const holders: Holders = new Map();
  for (const message of messages) {
    for (const [userId, flags] of await audiences.of(message, streams.get(message.streamId ?? -1))) {
      if (message.id === targetId || !holders.has(userId)) holders.set(userId, message.id === targetId ? flags : (holders.get(userId) ?? null));
    }
  }
  return holders;
}

/** delete_message, in the old place, to users a channel move took messages from. */
async function announceLostAccess(
  ctx: Ctx,
  tx: Tx,
  realm: Realm,
  moved: readonly Message[],
  before: ReadonlyMap<number, number[]>,
  now: ReadonlyMap<number, number[]>,
): Promise<void> {
  const lost = new Map<number, number[]>();
  for (const [userId, ids] of before) {
    const kept = new Set(now.get(userId) ?? []);
    const gone = ids.filter((id) => !kept.has(id));
    if (gone.length > 0) lost.set(userId, gone);
  }
  announceDeletion(ctx, tx, realm, moved, lost);
}
