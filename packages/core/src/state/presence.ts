import { presenceForViewer } from '../presence/read.js';
import { defineSection } from './sections.js';

/**
 * The `presence` section (SHAPES.md 2.4): what the viewer may see of everyone's presence, keyed
 * by user ID in the modern shape under `slim_presence`, by API email in the legacy one
 * otherwise, within `presence_history_limit_days` (14 by default). Kept current by `presence`
 * events and by the client's POST /users/me/presence with `presence_last_update_id`.
 */
export const presenceSection = defineSection({
  key: 'presence',
  async fetch(ctx, tx, { realm, user }, options) {
    if (!user) return { presences: {}, presence_last_update_id: -1, server_timestamp: ctx.clock.now() / 1000 };
    return {
      ...(await presenceForViewer(ctx, tx, realm, user, {
        slim: options.slimPresence,
        historyLimitDays: options.presenceHistoryLimitDays,
      })),
    };
  },
});
