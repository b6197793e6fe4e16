import { FLAG_BITS } from '../storage/types.js';
import { defineSection } from './sections.js';

/** More messages than anyone stars: "all of them" as a window size. */
const ALL = 1_000_000_000;

/** `starred_messages` (SHAPES.md 2.4): the user's starred message IDs, kept current by update_message_flags. */
export const starredMessagesSection = defineSection({
  key: 'starred_messages',
  eventTypes: ['update_message_flags'],
  async fetch(_ctx, tx, { user }) {
    if (!user) return { starred_messages: [] };
    // Starring a message gives the user a copy, so their own copies hold every star.
    const scope = { userId: user.id, sharedHistoryStreamIds: [] };
    const starred = { kind: 'flag', mask: FLAG_BITS.starred, set: true, negated: false } as const;
    const window = await tx.messages.window(scope, [starred], { anchor: 0, includeAnchor: false, numBefore: 0, numAfter: ALL });
    return { starred_messages: window.ids };
  },
});
