/**
 * Who may edit, move and delete which messages: the reference's rules (actions/message_edit.py,
 * views/message_edit.py) over the realm's message settings and the channel's group settings.
 * The realm's settings are its stored ones (settings/realm-settings.ts).
 */
import { err, ok, type Result } from 'neverthrow';
import { canAdministerChannel, inChannelGroupSetting } from '../access/channel-rules.js';
import { isAdmin, isModeratorOrAbove } from '../access/roles.js';
import type { GroupMember } from '../access/system-groups.js';
import { hasRealmPermission } from '../access/realm-rules.js';
import { realmSetting } from '../settings/realm-settings.js';
import { type ApiError, badRequest } from '../errors.js';
import type { Message, Realm, Stream } from '../storage/types.js';

/**
 * Slack on every time limit, as the reference gives it: a client offers an edit until 15 s
 * before the limit, and the request may take a while to arrive.
 */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

type Person = GroupMember;

type RealmSettings = Pick<Realm, 'settings'>;
/** Channel-level grants; guests only where the setting may name everyone (CHANNEL_GROUP_PERMISSIONS). */
const inChannelGroup = inChannelGroupSetting;

/** can_move_messages_within_channel: administrators, the channel's administrators and its group. */
const canMoveWithinChannel = (user: Person, stream: Stream) =>
  isAdmin(user) || canAdministerChannel(user, stream) || inChannelGroup(user, stream, 'can_move_messages_within_channel_group');

const age = (message: Message, nowSeconds: number) => nowSeconds - message.dateSent;
const past = (message: Message, nowSeconds: number, limit: number | null) =>
  limit !== null && age(message, nowSeconds) > limit + EDIT_LIMIT_BUFFER_SECONDS;

export const cannotEdit = () => badRequest("You don't have permission to edit this message");

/** Content edits: the sender only, while the realm allows editing and within its time limit. */
export function checkContentEdit(realm: RealmSettings, user: Person, message: Message, nowSeconds: number): Result<void, ApiError> {
  if (!realmSetting(realm, 'allow_message_editing')) return err(badRequest('Your organization has turned off message editing'));
  if (message.senderId !== user.id) return err(cannotEdit());
  if (past(message, nowSeconds, realmSetting(realm, 'message_content_edit_limit_seconds'))) return err(badRequest('The time limit for editing this message has passed'));
  return ok(undefined);
}

/**
 * Topic changes (can_edit_topic); resolving and unresolving have their own group
 * (can_resolve_topics). The channel-level permission of the channel the messages are in, or of
 * the one they move to, is enough.
 */
export function checkTopicMove(realm: RealmSettings, user: Person, stream: Stream, resolving: boolean, target: Stream = stream): Result<void, ApiError> {
  const channels = target.id === stream.id ? [stream] : [stream, target];
  if (resolving) {
    if (hasRealmPermission(user, realm, 'can_resolve_topics_group') || channels.some((s) => inChannelGroup(user, s, 'can_resolve_topics_group'))) return ok(undefined);
    return err(badRequest("You don't have permission to resolve topics in this channel."));
  }
  if (hasRealmPermission(user, realm, 'can_move_messages_between_topics_group') || channels.some((s) => canMoveWithinChannel(user, s))) {
    return ok(undefined);
  }
  return err(cannotEdit());
}

/** Moves out of a channel (can_move_messages_out_of_channel): also administrators and the channel's administrators. */
export function checkChannelMove(realm: RealmSettings, user: Person, stream: Stream): Result<void, ApiError> {
  if (isAdmin(user) || hasRealmPermission(user, realm, 'can_move_messages_between_channels_group') || canAdministerChannel(user, stream)) return ok(undefined);
  if (inChannelGroup(user, stream, 'can_move_messages_out_of_channel_group')) {
    return ok(undefined);
  }
  return err(badRequest("You don't have permission to move this message"));
}

/** The time limit of a move (the stricter one when both topic and channel change); null when none applies. */
export function moveLimitSeconds(realm: RealmSettings, user: Person, topicChanged: boolean, channelChanged: boolean): number | null {
  // Administrators and moderators move messages of any age.
  if (isModeratorOrAbove(user)) return null;
  const limits = [
    topicChanged ? realmSetting(realm, 'move_messages_within_stream_limit_seconds') : null,
    channelChanged ? realmSetting(realm, 'move_messages_between_streams_limit_seconds') : null,
  ].filter((limit): limit is number => limit !== null);
  return limits.length === 0 ? null : Math.min(...limits);
}

/** Whether a message is past a move limit. */
export const pastMoveLimit = (message: Message, nowSeconds: number, limit: number | null) => past(message, nowSeconds, limit);

/** The error for moving a message past the limit; the channel limit's text when the channel changes. */
export const moveLimitPassed = (channelChanged: boolean) =>
  badRequest(channelChanged ? "The time limit for editing this message's channel has passed" : "The time limit for editing this message's topic has passed.");

/**
 * Deleting: administrators (and the channel's can_delete_any_message_group) delete any message;
 * a sender deletes their own messages (and their bots') within the realm's delete limit.
 */
export function checkDelete(realm: RealmSettings, user: Person, message: Message, senderBotOwnerId: number | null, stream: Stream | undefined, nowSeconds: number): Result<void, ApiError> {
  const denied = () => err(badRequest("You don't have permission to delete this message"));
  if (isAdmin(user) || hasRealmPermission(user, realm, 'can_delete_any_message_group')) return ok(undefined);
  if (stream && inChannelGroup(user, stream, 'can_delete_any_message_group')) return ok(undefined);
  if (message.senderId !== user.id && senderBotOwnerId !== user.id) return denied();
  const mayDeleteOwn = hasRealmPermission(user, realm, 'can_delete_own_message_group') || (stream !== undefined && inChannelGroup(user, stream, 'can_delete_own_message_group'));
  if (!mayDeleteOwn) return denied();
  const limit = realmSetting(realm, 'message_content_delete_limit_seconds');
  if (limit !== null && age(message, nowSeconds) > limit) return err(badRequest('The time limit for deleting this message has passed'));
  return ok(undefined);
}
