import { defineSection } from './sections.js';

/** The reference's RECENT_CONVERSATIONS_LIMIT: the register lists at most this many conversations. */
export const MAX_RECENT_DM_CONVERSATIONS = 1000;

/**
 * The `recent_private_conversations` section (SHAPES.md 2.4): the requester's direct
 * conversations, newest first, each with the newest message the requester still holds and the
 * other participants (none for the conversation with themself), ascending.
 */
export const recentPrivateConversationsSection = defineSection({
  key: 'recent_private_conversations',
  eventTypes: ['message'],
  async fetch(_ctx, tx, { realm, user }) {
    if (!user) return { recent_private_conversations: [] };
    const conversations = await tx.messages.recentDmConversations(realm.id, user.id, MAX_RECENT_DM_CONVERSATIONS);
    return {
      recent_private_conversations: conversations.map(({ dmKey, maxMessageId }) => ({
        max_message_id: maxMessageId,
        user_ids: dmKey.split(',').map(Number).filter((id) => id !== user.id).sort((a, b) => a - b),
      })),
    };
  },
});
