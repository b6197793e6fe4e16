import { ok } from 'neverthrow';
import { type } from '../schemas/known-structs.js';
import { type Actor, userOperation } from '../operation.js';
import type { NavigationView } from '../storage/types.js';

/** A view as the API shows it (SHAPES.md 5.13): `name` null for built-in views. */
export const formatNavigationView = (view: NavigationView) => ({ fragment: view.fragment, is_pinned: view.isPinned, name: view.name });

/** GET /navigation_views: the user's own views, in the order they were added. */
export const getNavigationViews = userOperation(type({}), async (ctx, actor: Actor) => {
  const views = await ctx.storage.read((tx) => tx.navigationViews.list(actor.realm.id, actor.user.id));
  return ok({ navigation_views: views.map(formatNavigationView) });
});
