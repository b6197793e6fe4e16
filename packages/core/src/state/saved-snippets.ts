import { formatSavedSnippet } from '../queries/saved-snippets.js';
import { defineSection } from './sections.js';

/** The `saved_snippets` section: the user's snippets; none for a spectator. */
export const savedSnippetsSection = defineSection({
  key: 'saved_snippets',
  async fetch(_ctx, tx, { realm, user }) {
    return { saved_snippets: user ? (await tx.savedSnippets.list(realm.id, user.id)).map(formatSavedSnippet) : [] };
  },
});
