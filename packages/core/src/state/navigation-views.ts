import { formatNavigationView } from '../queries/navigation-views.js';
import type { StateSection } from './sections.js';

/** The `navigation_views` section (SHAPES.md register table): the user's views; none for a spectator. */
export const navigationViewsSection: StateSection = {
  key: 'navigation_views',
  eventTypes: ['navigation_view'],
  async fetch(_ctx, tx, { realm, user }) {
    return { navigation_views: user ? (await tx.navigationViews.list(realm.id, user.id)).map(formatNavigationView) : [] };
  },
};
