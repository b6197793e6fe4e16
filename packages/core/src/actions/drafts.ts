import { err, ok } from 'neverthrow';
import { checkDraft, checkDraftsSynchronized, formatDraft } from '../drafts/fields.js';
import { resourceNotFound } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { type Actor, userOperation } from '../operation.js';
import { CreateDraftsParams, DeleteDraftParams, EditDraftParams } from '../schemas/drafts.js';
import type { DraftFields } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

const draftDoesNotExist = () => resourceNotFound('Draft does not exist');

/**
 * POST /drafts: validates every draft first (one bad draft creates none), creates them in
 * order and answers their IDs in that order. The `drafts` add event goes to the owner's queues
 * only (FACTS.md 6.2).
 */
export const doCreateDrafts = userOperation(CreateDraftsParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    const synchronized = checkDraftsSynchronized(user);
    if (synchronized.isErr()) return err(synchronized.error);
    const fields: DraftFields[] = [];
    for (const input of params.drafts) {
      const checked = await checkDraft(tx, user, input, ctx.config, ctx.clock.now());
      if (checked.isErr()) return err(checked.error);
      fields.push(checked.value);
    }
    const drafts = (await tx.drafts.insert(user.realmId, user.id, fields)).map(formatDraft);
    publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'drafts', op: 'add', drafts } });
    return ok({ ids: drafts.map((d) => d.id) });
  }),
);

/** PATCH /drafts/{draft_id}: replaces the draft whole; another user's draft does not exist. */
export const doEditDraft = userOperation(EditDraftParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    const synchronized = checkDraftsSynchronized(user);
    if (synchronized.isErr()) return err(synchronized.error);
    if (!(await tx.drafts.get(user.realmId, user.id, params.draft_id))) return err(draftDoesNotExist());
    const checked = await checkDraft(tx, user, params.draft, ctx.config, ctx.clock.now());
    if (checked.isErr()) return err(checked.error);
    const draft = await tx.drafts.update(user.realmId, user.id, params.draft_id, checked.value);
    if (!draft) return err(draftDoesNotExist());
    publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'drafts', op: 'update', draft: formatDraft(draft) } });
    return ok({});
  }),
);

/** DELETE /drafts/{draft_id}. */
export const doDeleteDraft = userOperation(DeleteDraftParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    const synchronized = checkDraftsSynchronized(user);
    if (synchronized.isErr()) return err(synchronized.error);
    if (!(await tx.drafts.delete(user.realmId, user.id, params.draft_id))) return err(draftDoesNotExist());
    publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'drafts', op: 'remove', draft_id: params.draft_id } });
    return ok({});
  }),
);
