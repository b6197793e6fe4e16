/**
 * can_create_topic_group (check_for_can_create_topic_group_violation): posting to, or moving
 * messages into, a topic that has no messages yet starts it, which only the setting's members
 * may do. A bot the setting leaves out may still when its owner is in it.
 */
import { err, ok, type Result } from 'neverthrow';
import { canCreateTopics, channelGroup } from '../access/channel-rules.js';
import { withUserGroupIds } from '../access/group-membership.js';
import type { GroupMember } from '../access/system-groups.js';
import { type ApiError, badRequest } from '../errors.js';
import type { Stream, Tx, User } from '../storage/types.js';

export const cannotCreateTopics = () => badRequest('You do not have permission to create new topics in this channel.');

/** Refuses `user` starting `topic` (compared ignoring case) in the channel when the setting does not include them. */
export async function checkTopicCreation(tx: Tx, user: User & GroupMember, stream: Stream, topic: string): Promise<Result<void, ApiError>> {
  // The default: everyone may, and no lookup is needed.
  if (channelGroup(stream, 'can_create_topic_group') === 'role:everyone') return ok(undefined);
  if (await tx.messages.topicHasMessage(stream.realmId, stream.id, topic)) return ok(undefined);
  if (canCreateTopics(user, stream)) return ok(undefined);
  if (user.isBot && user.botOwnerId !== null) {
    const owner = await tx.users.byId(stream.realmId, user.botOwnerId);
    if (owner && canCreateTopics((await withUserGroupIds(tx, stream.realmId, [owner]))[0]!, stream)) return ok(undefined);
  }
  return err(cannotCreateTopics());
}
