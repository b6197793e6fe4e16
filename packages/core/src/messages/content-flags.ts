import { alertWordsMatch, type RenderedMessage } from '../markdown/index.js';
import { FLAG_BITS, type Realm, type StoredUserGroup, type Tx } from '../storage/types.js';

/** What the content-derived flags of a message depend on besides its rendering. */
export interface ContentFlagInputs {
  /** A channel message (wildcards mean nothing in direct messages). */
  channel: boolean;
  senderId: number;
  /** Who has sent to the topic: the audience of @**topic** (the sender always is). */
  topicParticipants: ReadonlySet<number>;
  /** The Markdown source and each user's alert words (users without words may be absent): `has_alert_word`. */
  alert?: { content: string; words: ReadonlyMap<number, readonly string[]> };
  /** The realm's user groups with their recursive members (access/group-membership.ts withRecursiveMembers): the members of a mentioned group are `mentioned`. */
  userGroups?: readonly Pick<StoredUserGroup, 'id' | 'members'>[];
}

/**
 * Each user's content-derived flag bits (within CONTENT_FLAG_MASK): `mentioned`, and the
 * channel and topic wildcards, and `has_alert_word` against each user's own words. Computed at
 * send and again after every content edit.
 */
export function contentFlags(rendered: RenderedMessage, userIds: Iterable<number>, inputs: ContentFlagInputs): Map<number, number> {
  const flagsByUser = new Map<number, number>();
  const viaGroups = new Set((inputs.userGroups ?? []).filter((g) => rendered.mentionedGroupIds.has(g.id)).flatMap((g) => g.members));
  for (const userId of userIds) {
    let flags = 0;
    if (rendered.mentionedUserIds.has(userId) || viaGroups.has(userId)) flags |= FLAG_BITS.mentioned;
    if (inputs.channel && rendered.wildcards.stream) flags |= FLAG_BITS.stream_wildcard_mentioned;
    if (inputs.channel && rendered.wildcards.topic && (inputs.topicParticipants.has(userId) || userId === inputs.senderId)) {
      flags |= FLAG_BITS.topic_wildcard_mentioned;
    }
    const words = inputs.alert?.words.get(userId);
    if (words && alertWordsMatch(inputs.alert!.content, words)) flags |= FLAG_BITS.has_alert_word;
    flagsByUser.set(userId, flags);
  }
  return flagsByUser;
}

/** Who has sent to the topic: they are the audience of @**topic**. */
export async function topicSenders(tx: Tx, realm: Realm, streamId: number, topic: string): Promise<Set<number>> {
  const ids = await tx.messages.topicMessageIds(realm.id, streamId, topic);
  return new Set((await tx.messages.byIds(realm.id, ids)).map((m) => m.senderId));
}
