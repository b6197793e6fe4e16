import { formatNavigationView } from '../queries/navigation-views.js';
import { defineSection } from './sections.js';

/** The `navigation_views` section (SHAPES.md register table): the user's views; none for a spectator. */
export const navigationViewsSection = defineSection({
  key: 'navigation_views',
  eventTypes: ['navigation_view'],
  async fetch(_ctx, tx, { realm, user }) {
    return { navigation_views: user ? (await tx.navigationViews.list(realm.id, user.id)).map(formatNavigationView) : [] };
  },
});
