import { ok } from 'neverthrow';
import { formatProfileField } from '../format/profile-field.js';
import { userOperation } from '../operation.js';
import { GetProfileFieldsParams } from '../schemas/profile-fields.js';

/** GET /realm/profile_fields: the realm's fields in their order, for any logged-in user. */
export const getProfileFields = userOperation(GetProfileFieldsParams, async (ctx, actor) =>
  ok({ custom_fields: (await ctx.storage.read((tx) => tx.customProfileFields.list(actor.realm.id))).map(formatProfileField) }),
);
