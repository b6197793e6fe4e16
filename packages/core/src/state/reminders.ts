import { formatReminder } from '../scheduled/reminder-fields.js';
import { defineSection } from './sections.js';

/** The `reminders` section: the user's undelivered reminders, earliest first; none for a spectator. */
export const remindersSection = defineSection({
  key: 'reminders',
  async fetch(_ctx, tx, { realm, user }) {
    if (!user) return { reminders: [] };
    return { reminders: (await tx.scheduledMessages.list(realm.id, user.id, 'remind')).map(formatReminder) };
  },
});
