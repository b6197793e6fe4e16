/**
 * Linkifiers (the reference's views/realm_linkifiers.py): administrators add, change, delete and
 * reorder them; each change sends `realm_linkifiers` with the whole list after commit.
 */
import { err, ok, type Result } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import { type ApiError, badRequest, mustBeAdmin } from '../errors.js';
import { checkLinkifier, type LinkifierFields } from '../linkifiers/check.js';
import { type Actor, userOperation } from '../operation.js';
import { AddLinkifierParams, RemoveLinkifierParams, ReorderLinkifiersParams, UpdateLinkifierParams } from '../schemas/linkifiers.js';
import type { StoredLinkifier } from '../storage/types.js';
import { announceLinkifiers } from '../linkifiers/events.js';
import { transactionAs } from '../transaction.js';

const NOT_FOUND = 'Linkifier not found.';

interface LinkifierInput {
  pattern: string;
  url_template: string;
  example_input?: string | null | undefined;
  reverse_template?: string | null | undefined;
  alternative_url_templates?: string[] | undefined;
}

// pattern and url_template are stripped, as the reference saves them. An empty example_input or
// reverse_template resets it to null; an omitted one keeps the stored value (none when adding).
function requestedFields(input: LinkifierInput, stored?: StoredLinkifier): LinkifierFields {
  const orKept = (value: string | null | undefined, kept: string | null) => (value === undefined ? kept : value === '' ? null : value);
  return {
    pattern: input.pattern.trim(),
    urlTemplate: input.url_template.trim(),
    exampleInput: orKept(input.example_input, stored?.exampleInput ?? null),
    reverseTemplate: orKept(input.reverse_template, stored?.reverseTemplate ?? null),
    alternativeUrlTemplates: input.alternative_url_templates ?? stored?.alternativeUrlTemplates ?? [],
  };
}

const checked = (fields: LinkifierFields, others: readonly StoredLinkifier[]): Result<LinkifierFields, ApiError> =>
  checkLinkifier(
    fields,
    others.map((l) => l.pattern),
  ).map(() => fields);

/** POST /realm/filters: adds a linkifier after the others; returns its `id`. */
export const doAddLinkifier = userOperation(AddLinkifierParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isAdmin(actor.user)) return err(mustBeAdmin());
    const fields = checked(requestedFields(params), await tx.linkifiers.list(actor.realm.id));
    if (fields.isErr()) return err(fields.error);
    const linkifier = await tx.linkifiers.insert(actor.realm.id, { ...fields.value, alternativeUrlTemplates: [...fields.value.alternativeUrlTemplates] });
    await announceLinkifiers(ctx, tx, actor.realm);
    return ok({ id: linkifier.id });
  }),
);

/** PATCH /realm/filters/{filter_id}: replaces a linkifier's fields, keeping its place. */
export const doUpdateLinkifier = userOperation(UpdateLinkifierParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isAdmin(actor.user)) return err(mustBeAdmin());
    const all = await tx.linkifiers.list(actor.realm.id);
    const stored = all.find((l) => l.id === params.filter_id);
    if (!stored) return err(badRequest(NOT_FOUND));
    const fields = checked(requestedFields(params, stored), all.filter((l) => l !== stored));
    if (fields.isErr()) return err(fields.error);
    await tx.linkifiers.update(actor.realm.id, stored.id, { ...fields.value, alternativeUrlTemplates: [...fields.value.alternativeUrlTemplates] });
    await announceLinkifiers(ctx, tx, actor.realm);
    return ok({});
  }),
);

/** DELETE /realm/filters/{filter_id}. */
export const doRemoveLinkifier = userOperation(RemoveLinkifierParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isAdmin(actor.user)) return err(mustBeAdmin());
    if (!(await tx.linkifiers.delete(actor.realm.id, params.filter_id))) return err(badRequest(NOT_FOUND));
    await announceLinkifiers(ctx, tx, actor.realm);
    return ok({});
  }),
);

/** PATCH /realm/linkifiers: the new processing order, naming every linkifier exactly once. */
export const doReorderLinkifiers = userOperation(ReorderLinkifiersParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (!isAdmin(actor.user)) return err(mustBeAdmin());
    const ids = params.ordered_linkifier_ids;
    if (new Set(ids).size < ids.length) return err(badRequest('The ordered list must not contain duplicated linkifiers'));
    const stored = new Set((await tx.linkifiers.list(actor.realm.id)).map((l) => l.id));
    if (stored.size !== ids.length || ids.some((id) => !stored.has(id))) {
      return err(badRequest('The ordered list must enumerate all existing linkifiers exactly once'));
    }
    await tx.linkifiers.reorder(actor.realm.id, ids);
    await announceLinkifiers(ctx, tx, actor.realm);
    return ok({});
  }),
);
