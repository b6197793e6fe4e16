import { formatScheduledMessage } from '../scheduled/fields.js';
import { defineSection } from './sections.js';

/** The `scheduled_messages` section: the user's undelivered messages, earliest first; none for a spectator. */
export const scheduledMessagesSection = defineSection({
  key: 'scheduled_messages',
  async fetch(_ctx, tx, { realm, user }) {
    if (!user) return { scheduled_messages: [] };
    return { scheduled_messages: (await tx.scheduledMessages.list(realm.id, user.id)).map(formatScheduledMessage) };
  },
});
