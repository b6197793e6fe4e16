import { ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import { type Actor, userOperation } from '../operation.js';
import type { SavedSnippet } from '../storage/types.js';

/** A snippet as the API shows it (the reference's SavedSnippet.to_api_dict). */
/** A saved snippet (reusable message text) as the API shows it. */
export interface ApiSavedSnippet {
  id: number;
  title: string;
  content: string;
  /** UNIX seconds. */
  date_created: number;
}

export const formatSavedSnippet = (snippet: SavedSnippet): ApiSavedSnippet => ({
  id: snippet.id,
  title: snippet.title,
  content: snippet.content,
  date_created: snippet.dateCreated,
});

/** GET /saved_snippets: the user's own snippets, oldest first. */
export const getSavedSnippets = userOperation(type({}), async (ctx, actor: Actor) => {
  const snippets = await ctx.storage.read((tx) => tx.savedSnippets.list(actor.realm.id, actor.user.id));
  return ok({ saved_snippets: snippets.map(formatSavedSnippet) });
});
