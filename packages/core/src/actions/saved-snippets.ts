/**
 * Saved snippets: a user's reusable message texts (the reference's actions/saved_snippets.py).
 * Each change goes to the owner's own queues only, as a saved_snippets event.
 */
import { err, ok, type Result } from 'neverthrow';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, resourceNotFound } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { type Actor, userOperation } from '../operation.js';
import { formatSavedSnippet } from '../queries/saved-snippets.js';
import { CreateSavedSnippetParams, DeleteSavedSnippetParams, EditSavedSnippetParams } from '../schemas/saved-snippets.js';
import type { SavedSnippetPatch, Tx, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';
import type { DistributiveOmit } from '../events/types.js';
import type { SavedSnippetsEvent } from '../events/union/personal.js';

/** The reference answers an unknown snippet with ResourceNotFoundError: BAD_REQUEST, HTTP 404. */
const doesNotExist = () => resourceNotFound('Saved snippet does not exist.');

/** Content is bounded like a message's (the reference: settings.MAX_MESSAGE_LENGTH). */
function checkContent(ctx: Ctx, content: string | undefined): Result<void, ApiError> {
  const max = ctx.config.maxMessageLength;
  if (content !== undefined && [...content].length > max) return err(badRequest(`content is too long (limit: ${max} characters)`));
  return ok(undefined);
}

/** POST /saved_snippets: returns the new snippet's `saved_snippet_id`. */
export const doCreateSavedSnippet = userOperation(CreateSavedSnippetParams, async (ctx, requester: Actor, params) => {
  const checked = checkContent(ctx, params.content);
  if (checked.isErr()) return err(checked.error);
  const snippet = { title: params.title.trim(), content: params.content.trim(), dateCreated: Math.floor(ctx.clock.now() / 1000) };
  return transactionAs(ctx, requester, async (tx, { user }) => {
    const saved = await tx.savedSnippets.insert(user.realmId, user.id, snippet);
    if (!saved) return err(doesNotExist());
    announce(ctx, tx, user, { op: 'add', saved_snippet: formatSavedSnippet(saved) });
    return ok({ saved_snippet_id: saved.id });
  });
});

/** PATCH /saved_snippets/{saved_snippet_id}: a request changing nothing sends no event. */
export const doEditSavedSnippet = userOperation(EditSavedSnippetParams, async (ctx, requester: Actor, params) => {
  const checked = checkContent(ctx, params.content);
  if (checked.isErr()) return err(checked.error);
  const patch: SavedSnippetPatch = { title: params.title?.trim(), content: params.content?.trim() };
  return transactionAs(ctx, requester, async (tx, { user }) => {
    if (patch.title === undefined && patch.content === undefined) return ok({});
    const saved = await tx.savedSnippets.update(user.realmId, user.id, params.saved_snippet_id, patch);
    if (!saved) return err(doesNotExist());
    announce(ctx, tx, user, { op: 'update', saved_snippet: formatSavedSnippet(saved) });
    return ok({});
  });
});

/** DELETE /saved_snippets/{saved_snippet_id}. */
export const doDeleteSavedSnippet = userOperation(DeleteSavedSnippetParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    if (!(await tx.savedSnippets.delete(user.realmId, user.id, params.saved_snippet_id))) return err(doesNotExist());
    announce(ctx, tx, user, { op: 'remove', saved_snippet_id: params.saved_snippet_id });
    return ok({});
  }),
);

/** A saved_snippets event to the owner's queues only, after commit. */
function announce(ctx: Ctx, tx: Tx, user: User, body: DistributiveOmit<SavedSnippetsEvent, 'type'>): void {
  publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'saved_snippets', ...body } });
}
