import { defineSection } from './sections.js';

/** The `alert_words` section (SHAPES.md 2.4): the user's words; none for a spectator. */
export const alertWordsSection = defineSection({
  key: 'alert_words',
  async fetch(_ctx, tx, { realm, user }) {
    return { alert_words: user ? await tx.alertWords.list(realm.id, user.id) : [] };
  },
});
