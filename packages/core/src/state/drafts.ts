import { formatDraft } from '../drafts/fields.js';
import { userSetting } from '../settings/user-settings.js';
import { defineSection } from './sections.js';

/** The reference's MAX_DRAFTS_IN_REGISTER_RESPONSE. */
export const MAX_DRAFTS_IN_REGISTER = 1000;

/**
 * The `drafts` section (SHAPES.md 2.4): newest edit first, at most 1000; none for a spectator
 * or a user who turned synchronization off.
 */
export const draftsSection = defineSection({
  key: 'drafts',
  async fetch(_ctx, tx, { realm, user }) {
    if (!user || !userSetting(user, 'enable_drafts_synchronization')) return { drafts: [] };
    const drafts = await tx.drafts.list(realm.id, user.id, { newestFirst: true, limit: MAX_DRAFTS_IN_REGISTER });
    return { drafts: drafts.map(formatDraft) };
  },
});
