/**
 * Users' custom profile field values: the one check and the one write that both
 * PATCH /users/me/profile_data and PATCH /users/{id} (profile_data) use.
 */
import { err, ok, type Result } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest, botsNotAllowed } from '../errors.js';
import { announcePersonUpdate } from '../events/realm-user.js';
import { formatProfileValue } from '../format/profile-field.js';
import { renderMessage } from '../markdown/index.js';
import { renderContextFor } from '../messages/render-context.js';
import { type Actor, userOperation } from '../operation.js';
import { MARKDOWN_TYPES } from '../profile-fields/types.js';
import { checkProfileValue, type ProfileValueInput } from '../profile-fields/values.js';
import { UpdateOwnProfileDataParams } from '../schemas/profile-fields.js';
import type { CustomProfileField, Realm, Tx, User } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

/** A checked value to write: the text to store, or null to remove the user's value. */
export interface ProfileValueChange {
  field: CustomProfileField;
  value: string | null;
}

/**
 * Checks every entry before anything is written, in the reference's order per entry: the field
 * exists in the realm, the requester may edit it, the value suits the field's type.
 * `ownProfile`: the request edits the requester's own profile through /users/me/profile_data,
 * where a field that is not editable_by_user is closed to everyone but administrators.
 */
export async function checkProfileData(
  tx: Tx,
  actor: Actor,
  entries: readonly { id: number; value: ProfileValueInput }[],
  ownProfile: boolean,
): Promise<Result<ProfileValueChange[], ApiError>> {
  if (entries.length === 0) return ok([]);
  const fields = new Map((await tx.customProfileFields.list(actor.realm.id)).map((f) => [f.id, f]));
  const users = new Map((await tx.users.list(actor.realm.id)).map((u) => [u.id, u]));
  const changes: ProfileValueChange[] = [];
  for (const entry of entries) {
    const field = fields.get(entry.id);
    if (!field) return err(badRequest(`Field id ${entry.id} not found.`));
    if (ownProfile && !field.editableByUser && !isAdmin(actor.user)) {
      return err(badRequest('You are not allowed to change this field. Contact an administrator to update it.'));
    }
    const value = checkProfileValue(field, entry.value, users);
    if (value.isErr()) return err(value.error);
    changes.push({ field, value: value.value });
  }
  return ok(changes);
}

/**
 * Writes checked values of `target` and announces each one that changed with the realm_user
 * custom_profile_field person form (`value` null when removed; `rendered_value` for Markdown
 * types). Markdown values are rendered once here and stored with the value.
 */
export async function applyProfileData(ctx: Ctx, tx: Tx, realm: Realm, target: User, changes: readonly ProfileValueChange[]): Promise<void> {
  if (changes.length === 0) return;
  const current = new Map<number, string | null>((await tx.customProfileFields.values(realm.id, [target.id])).map((v) => [v.fieldId, v.value]));
  const needsRender = changes.some((c) => c.value !== null && MARKDOWN_TYPES.has(c.field.type));
  const renderContext = needsRender ? renderContextFor(realm, await tx.users.list(realm.id), [], new Date(ctx.clock.now())) : undefined;
  for (const { field, value } of changes) {
    if ((current.get(field.id) ?? null) === value) continue;
    current.set(field.id, value);
    if (value === null) {
      await tx.customProfileFields.removeValue(realm.id, target.id, field.id);
      await announcePersonUpdate(ctx, tx, realm, target, { custom_profile_field: { id: field.id, value: null } });
      continue;
    }
    const renderedValue = renderContext && MARKDOWN_TYPES.has(field.type) ? renderMessage(value, renderContext).html : null;
    await tx.customProfileFields.setValue(realm.id, { userId: target.id, fieldId: field.id, value, renderedValue });
    await announcePersonUpdate(ctx, tx, realm, target, {
      custom_profile_field: { id: field.id, ...formatProfileValue({ value, renderedValue }) },
    });
  }
}

/** PATCH /users/me/profile_data (API.md 4.12): humans only, as in the reference. */
export const doUpdateOwnProfileData = userOperation(UpdateOwnProfileDataParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    if (actor.user.isBot) return err(botsNotAllowed());
    const changes = await checkProfileData(tx, actor, params.data, true);
    if (changes.isErr()) return err(changes.error);
    await applyProfileData(ctx, tx, actor.realm, actor.user, changes.value);
    return ok({});
  }),
);
