/**
 * The Notification Bot's notices about topic moves (PATCH /messages/{id}), after the
 * reference's do_update_message: "resolved"/"unresolved" notices, always sent when a topic
 * edit alone toggles the ✔ prefix, then the breadcrumbs in the new place
 * (send_notification_to_new_thread, default true; not for resolving) and in the old one
 * (send_notification_to_old_thread, default false). Each notice is read for the user who moved.
 */
import { ok, type Result } from 'neverthrow';
import { RESOLVED_TOPIC_PREFIX as RESOLVED_PREFIX } from '../messages/moves.js';
import type { Ctx } from '../context.js';
import type { ApiError } from '../errors.js';
import { channelMessageUrl } from '../messages/urls.js';
import type { Readable } from '../queries/messages.js';
import { userSetting } from '../settings/user-settings.js';
import { type Realm, type Stream, type Tx, type User, VISIBILITY_POLICY } from '../storage/types.js';
import { sendNotificationBotMessage } from './send.js';
import { silentMention, topicLink } from './syntax.js';

export interface MoveReport {
  mover: User;
  targetId: number;
  movedIds: readonly number[];
  /** Whether the moved messages were all those of the old topic the mover could read. */
  movedAllVisible: boolean;
  from: { stream: Stream; topic: string };
  to: { stream: Stream; topic: string };
  topicEdited: boolean;
  contentEdited: boolean;
  sendToOldThread: boolean;
  sendToNewThread: boolean;
  /** What the mover may read (decides whether the new topic had messages they could see). */
  readable: Readable;
}

/** Sends the notices a move calls for, inside the move's transaction. */
export async function sendMoveNotices(ctx: Ctx, tx: Tx, realm: Realm, move: MoveReport): Promise<Result<void, ApiError>> {
  const streamEdited = move.from.stream.id !== move.to.stream.id;
  const resolution = move.topicEdited && !move.contentEdited && !streamEdited ? resolutionOf(move.from.topic, move.to.topic) : undefined;
  if (resolution) {
    const sent = await sendResolutionNotice(ctx, tx, realm, move, resolution);
    if (sent.isErr()) return sent;
  }
  const count = move.movedIds.length;
  const mover = silentMention(move.mover);
  const readBy = [move.mover.id];
  // Unlike the reference, a breadcrumb never names a private channel in another channel: its
  // name would reach people outside it.
  const namesPrivate = (named: Stream, postedIn: Stream) => named.inviteOnly && named.id !== postedIn.id;
  if (move.sendToNewThread && (streamEdited || (move.topicEdited && !resolution)) && !namesPrivate(move.from.stream, move.to.stream)) {
    const oldLocation = topicLink(move.from.stream.name, move.from.topic);
    const link = channelMessageUrl(realm, move.to.stream, move.to.topic, move.targetId);
    const content =
      move.movedAllVisible && !(await hadVisibleMessages(tx, realm, move))
        ? `This topic was moved here from ${oldLocation} by ${mover}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${oldLocation} by ${mover}.`
          : `${count} messages were moved here from ${oldLocation} by ${mover}.`;
    const sent = await sendNotificationBotMessage(ctx, tx, realm, { to: { channelId: move.to.stream.id, topic: move.to.topic }, content }, { readBy });
    if (sent.isErr()) return sent.map(() => undefined);
  }
  if (move.sendToOldThread && !namesPrivate(move.to.stream, move.from.stream)) {
    const newLocation = topicLink(move.to.stream.name, move.to.topic);
    const content = move.movedAllVisible
      ? `This topic was moved to ${newLocation} by ${mover}.`
      : count === 1
        ? `A message was moved from this topic to ${newLocation} by ${mover}.`
        : `${count} messages were moved from this topic to ${newLocation} by ${mover}.`;
    const sent = await sendNotificationBotMessage(ctx, tx, realm, { to: { channelId: move.from.stream.id, topic: move.from.topic }, content }, { readBy });
    if (sent.isErr()) return sent.map(() => undefined);
  }
  return ok(undefined);
}

/** 'resolved' when the new name is the old one with ✔ added, 'unresolved' when it is taken off. */
function resolutionOf(from: string, to: string): 'resolved' | 'unresolved' | undefined {
  if (to.startsWith(RESOLVED_PREFIX) && !from.startsWith(RESOLVED_PREFIX) && to.slice(RESOLVED_PREFIX.length) === from) return 'resolved';
  if (from.startsWith(RESOLVED_PREFIX) && !to.startsWith(RESOLVED_PREFIX) && from.replace(/^(✔ )+/, '') === to) return 'unresolved';
  return undefined;
}

/**
 * The resolve notice goes to the (renamed) topic. It is unread only for human recipients whose
 * resolved_topic_notice_auto_read_policy is "never", or "except_followed" while they follow the
 * topic (policies have already moved with it), and always read for the user who resolved.
 */
async function sendResolutionNotice(ctx: Ctx, tx: Tx, realm: Realm, move: MoveReport, resolution: 'resolved' | 'unresolved'): Promise<Result<void, ApiError>> {
  const subscribers = await tx.users.list(realm.id, await tx.subscriptions.activeSubscriberIds(realm.id, move.to.stream.id));
  const followers = new Set(
    (await tx.userTopics.forTopic(realm.id, move.to.stream.id, move.to.topic)).filter((r) => r.visibilityPolicy === VISIBILITY_POLICY.followed).map((r) => r.userId),
  );
  const keepsUnread = (u: User) => {
    const policy = userSetting(u, 'resolved_topic_notice_auto_read_policy');
    return !u.isBot && (policy === 'never' || (policy === 'except_followed' && followers.has(u.id)));
  };
  const readBy = subscribers.filter((u) => u.id === move.mover.id || !keepsUnread(u)).map((u) => u.id);
  const content = `${silentMention(move.mover)} has marked this topic as ${resolution}.`;
  const sent = await sendNotificationBotMessage(ctx, tx, realm, { to: { channelId: move.to.stream.id, topic: move.to.topic }, content }, { readBy });
  return sent.map(() => undefined);
}

/** Whether the new topic held messages, besides the moved ones, that the mover could read. */
async function hadVisibleMessages(tx: Tx, realm: Realm, move: MoveReport): Promise<boolean> {
  const moved = new Set(move.movedIds);
  let ids = (await tx.messages.topicMessageIds(realm.id, move.to.stream.id, move.to.topic)).filter((id) => !moved.has(id));
  if (ids.length > 0 && !move.readable.scope.sharedHistoryStreamIds.includes(move.to.stream.id)) {
    const copies = await tx.messages.flagsOf(move.mover.id, ids);
    ids = ids.filter((id) => copies.has(id));
  }
  return ids.length > 0;
}
