import { err, ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { publishOnCommit } from '../events/publish.js';
import { type Actor, userOperation } from '../operation.js';
import { AddNavigationViewParams, EditNavigationViewParams, RemoveNavigationViewParams } from '../schemas/navigation-views.js';
import type { NavigationViewPatch, Tx, User } from '../storage/types.js';
import { formatNavigationView } from '../queries/navigation-views.js';
import { transactionAs } from '../transaction.js';
import type { DistributiveOmit } from '../events/types.js';
import type { NavigationViewEvent } from '../events/union/personal.js';

/** The views the web app ships with (FACTS.md 6.8): they are configured (pinned or hidden) but never renamed. */
export const BUILT_IN_NAVIGATION_VIEWS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
  'reminders',
]);

const builtInNamed = () => badRequest('Built-in views cannot have a custom name.');
const alreadyExists = () => badRequest('Navigation view already exists.');
/** API.md's NOT_FOUND (HTTP 404), for PATCH and DELETE alike; the reference's DELETE says BAD_REQUEST. */
const doesNotExist = () => notFound('Navigation view does not exist.');

/** POST /navigation_views: configures a built-in view or adds a custom one (which needs a name). */
export const doAddNavigationView = userOperation(AddNavigationViewParams, async (ctx, requester: Actor, params) => {
  const fragment = params.fragment.trim();
  const name = params.name?.trim();
  if (BUILT_IN_NAVIGATION_VIEWS.has(fragment)) {
    if (name !== undefined) return err(builtInNamed());
  } else if (name === undefined) {
    return err(badRequest('Custom views must have a valid name.'));
  }
  const view = { fragment, isPinned: params.is_pinned, name: name ?? null };
  return transactionAs(ctx, requester, async (tx, { user }) => {
    if (!(await tx.navigationViews.insert(user.realmId, user.id, view))) return err(alreadyExists());
    announce(ctx, tx, user, { op: 'add', navigation_view: formatNavigationView(view) });
    return ok({});
  });
});

/** PATCH /navigation_views/{fragment}: pins or hides a view, or renames a custom one. */
export const doEditNavigationView = userOperation(EditNavigationViewParams, async (ctx, requester: Actor, params) => {
  const fragment = params.fragment.trim();
  const name = params.name?.trim();
  if (name !== undefined && BUILT_IN_NAVIGATION_VIEWS.has(fragment)) return err(builtInNamed());
  return transactionAs(ctx, requester, async (tx, { user }) => {
    const view = await tx.navigationViews.byFragment(user.realmId, user.id, fragment);
    if (!view) return err(doesNotExist());
    // Only what actually changes is written and announced; a request changing nothing sends no event.
    const patch: NavigationViewPatch = {};
    const data: Record<string, unknown> = {};
    if (params.is_pinned !== undefined && params.is_pinned !== view.isPinned) data.is_pinned = patch.isPinned = params.is_pinned;
    if (name !== undefined && name !== view.name) data.name = patch.name = name;
    if (Object.keys(data).length === 0) return ok({});
    if (!(await tx.navigationViews.update(user.realmId, user.id, fragment, patch))) return err(alreadyExists());
    announce(ctx, tx, user, { op: 'update', fragment, data });
    return ok({});
  });
});

/** DELETE /navigation_views/{fragment}. */
export const doRemoveNavigationView = userOperation(RemoveNavigationViewParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, { user }) => {
    const fragment = params.fragment.trim();
    if (!(await tx.navigationViews.remove(user.realmId, user.id, fragment))) return err(doesNotExist());
    announce(ctx, tx, user, { op: 'remove', fragment });
    return ok({});
  }),
);

/** A navigation_view event (SHAPES.md 4.10) to the owner's queues only, after commit. */
function announce(ctx: Ctx, tx: Tx, user: User, body: DistributiveOmit<NavigationViewEvent, 'type'>): void {
  publishOnCommit(ctx, tx, { realmId: user.realmId, userIds: [user.id], event: { type: 'navigation_view', ...body } });
}
