import { formatProfileField } from '../format/profile-field.js';
import { FIELD_TYPES } from '../profile-fields/types.js';
import { defineSection } from './sections.js';

/** The `custom_profile_fields` section (SHAPES.md 2.4): the fields in order and the type table. */
export const customProfileFieldsSection = defineSection({
  key: 'custom_profile_fields',
  async fetch(_ctx, tx, { realm }) {
    return {
      custom_profile_fields: (await tx.customProfileFields.list(realm.id)).map(formatProfileField),
      custom_profile_field_types: FIELD_TYPES,
    };
  },
});
