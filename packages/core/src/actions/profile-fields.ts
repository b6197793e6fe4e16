/**
 * Custom profile field definitions: create, update, delete, reorder (the reference's
 * views/custom_profile_fields.py). Administrators only; every change sends the realm the
 * whole list in a custom_profile_fields event after commit.
 */
import { err, ok, type Result } from 'neverthrow';
import { isAdmin } from '../access/roles.js';
import { type ApiError, badRequest, mustBeAdmin } from '../errors.js';
import { announceProfileFields } from '../events/profile-fields.js';
import { type Actor, userOperation } from '../operation.js';
import { checkLabel, checkSummary, checkUniqueLabel, checkUserMatching } from '../profile-fields/definition.js';
import { checkFieldData } from '../profile-fields/field-data.js';
import { DEFAULT_EXTERNAL_ACCOUNTS, FIELD_TYPES, isDefaultExternalField, SELECT } from '../profile-fields/types.js';
import {
  CreateProfileFieldParams,
  DeleteProfileFieldParams,
  ReorderProfileFieldsParams,
  UpdateProfileFieldParams,
} from '../schemas/profile-fields.js';
import type { Ctx } from '../context.js';
import type { CustomProfileField, CustomProfileFieldPatch, Tx } from '../storage/types.js';
import { applyProfileData } from './profile-data.js';
import { transactionAs } from '../transaction.js';

const TYPE_IDS = new Set(Object.values(FIELD_TYPES).map((t) => t.id));

/** Runs `fn` for an administrator with the realm's fields; anyone else is refused. */
const asAdmin = <T>(
  fn: (tx: Tx, actor: Actor, fields: CustomProfileField[]) => Promise<Result<T, ApiError>>,
) =>
  (tx: Tx, actor: Actor) =>
    isAdmin(actor.user) ? tx.customProfileFields.list(actor.realm.id).then((fields) => fn(tx, actor, fields)) : Promise.resolve(err(mustBeAdmin()));

const notFound = (id: number) => badRequest(`Field id ${id} not found.`);

/**
 * POST /realm/profile_fields. A default external account field (FACTS.md 7.3) takes its label
 * and hint from the provider, whatever the request says. Returns the new field's `id`.
 */
export const doCreateProfileField = userOperation(CreateProfileFieldParams, async (ctx, requester: Actor, params) =>
  transactionAs(
    ctx,
    requester,
    asAdmin(async (tx, actor, fields) => {
      const type = params.field_type;
      if (!TYPE_IDS.has(type)) return err(badRequest('Invalid field type.'));
      const fieldData = checkFieldData(type, params.field_data);
      if (fieldData.isErr()) return err(fieldData.error);
      const provider = isDefaultExternalField(type, fieldData.value) ? DEFAULT_EXTERNAL_ACCOUNTS[fieldData.value!.subtype as string]! : undefined;
      const label = provider ? ok({ name: provider.name, hint: provider.hint }) : checkLabel(params.name ?? '', params.hint ?? '');
      if (label.isErr()) return err(label.error);
      const shown = params.display_in_profile_summary ?? false;
      const matching = params.use_for_user_matching ?? false;
      const checked = checkSummary(type, shown, fields)
        .andThen(() => checkUserMatching(type, matching))
        .andThen(() => checkUniqueLabel(fields, label.value.name));
      if (checked.isErr()) return err(checked.error);
      const field = await tx.customProfileFields.insert({
        realmId: actor.realm.id,
        name: label.value.name,
        hint: label.value.hint,
        type,
        fieldData: fieldData.value,
        required: params.required ?? false,
        editableByUser: params.editable_by_user ?? true,
        displayInProfileSummary: shown,
        useForUserMatching: matching,
      });
      await announceProfileFields(ctx, tx, actor.realm);
      return ok({ id: field.id });
    }),
  ),
);

/** PATCH /realm/profile_fields/{field_id} (API.md 4.7): every parameter optional; the type never changes. */
export const doUpdateProfileField = userOperation(UpdateProfileFieldParams, async (ctx, requester: Actor, params) =>
  transactionAs(
    ctx,
    requester,
    asAdmin(async (tx, actor, fields) => {
      const field = fields.find((f) => f.id === params.field_id);
      if (!field) return err(notFound(params.field_id));
      const others = fields.filter((f) => f !== field);
      const patch: CustomProfileFieldPatch = {};
      const relabels = params.name !== undefined || params.hint !== undefined || params.field_data !== undefined;
      if (relabels && isDefaultExternalField(field.type, field.fieldData)) return err(badRequest('Default custom field cannot be updated.'));
      if (params.name !== undefined || params.hint !== undefined) {
        const label = checkLabel(params.name ?? field.name, params.hint ?? field.hint);
        if (label.isErr()) return err(label.error);
        const unique = checkUniqueLabel(others, label.value.name);
        if (unique.isErr()) return err(unique.error);
        Object.assign(patch, label.value);
      }
      if (params.field_data !== undefined) {
        const fieldData = checkFieldData(field.type, params.field_data);
        if (fieldData.isErr()) return err(fieldData.error);
        patch.fieldData = fieldData.value;
        await clearRemovedChoices(ctx, tx, actor, field, fieldData.value);
      }
      if (params.display_in_profile_summary !== undefined) {
        // A field already shown does not count against itself.
        const summary = checkSummary(field.type, params.display_in_profile_summary, others);
        if (summary.isErr()) return err(summary.error);
        patch.displayInProfileSummary = params.display_in_profile_summary;
      }
      if (params.use_for_user_matching !== undefined) {
        const matching = checkUserMatching(field.type, params.use_for_user_matching);
        if (matching.isErr()) return err(matching.error);
        patch.useForUserMatching = params.use_for_user_matching;
      }
      if (params.required !== undefined) patch.required = params.required;
      if (params.editable_by_user !== undefined) patch.editableByUser = params.editable_by_user;
      await tx.customProfileFields.update(actor.realm.id, field.id, patch);
      await announceProfileFields(ctx, tx, actor.realm);
      return ok({});
    }),
  ),
);

/**
 * A dropdown's choices changed: users whose value was a removed choice lose it, each with a
 * realm_user event, as the reference's remove_custom_profile_field_value_if_required does.
 */
async function clearRemovedChoices(ctx: Ctx, tx: Tx, actor: Actor, field: CustomProfileField, fieldData: CustomProfileField['fieldData']) {
  if (field.type !== SELECT) return;
  const kept = new Set(Object.keys(fieldData ?? {}));
  const values = await tx.customProfileFields.values(actor.realm.id);
  const cleared = values.filter((v) => v.fieldId === field.id && !kept.has(v.value));
  const users = new Map((await tx.users.list(actor.realm.id, cleared.map((v) => v.userId))).map((u) => [u.id, u]));
  for (const value of cleared) {
    const user = users.get(value.userId);
    if (user) await applyProfileData(ctx, tx, actor.realm, user, [{ field, value: null }]);
  }
}

/** DELETE /realm/profile_fields/{field_id}: the field and every user's value of it. */
export const doDeleteProfileField = userOperation(DeleteProfileFieldParams, async (ctx, requester: Actor, params) =>
  transactionAs(
    ctx,
    requester,
    asAdmin(async (tx, actor, fields) => {
      if (!fields.some((f) => f.id === params.field_id)) return err(notFound(params.field_id));
      await tx.customProfileFields.delete(actor.realm.id, params.field_id);
      await announceProfileFields(ctx, tx, actor.realm);
      return ok({});
    }),
  ),
);

/** PATCH /realm/profile_fields: `order` must list every field of the realm exactly once. */
export const doReorderProfileFields = userOperation(ReorderProfileFieldsParams, async (ctx, requester: Actor, params) =>
  transactionAs(
    ctx,
    requester,
    asAdmin(async (tx, actor, fields) => {
      const wanted = new Set(params.order);
      const complete = wanted.size === params.order.length && wanted.size === fields.length && fields.every((f) => wanted.has(f.id));
      if (!complete) return err(badRequest('Invalid order mapping.'));
      await tx.customProfileFields.reorder(actor.realm.id, params.order);
      await announceProfileFields(ctx, tx, actor.realm);
      return ok({});
    }),
  ),
);
