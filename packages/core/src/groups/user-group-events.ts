import type { Ctx } from '../context.js';
import { activeUserIds, publishOnCommit } from '../events/publish.js';
import { defineEventRule } from '../events/rules.js';
import type { ApiEvent } from '../events/types.js';
import type { Realm, Tx } from '../storage/types.js';

/** Marker the rule below reads and strips: which clients an event is for (not part of the API). */
const AUDIENCE = 'for_include_deactivated_groups';

/**
 * Clients with `include_deactivated_groups` learn of a deactivation as update {deactivated: true}
 * (and of a reactivation as update {deactivated: false}); the others as remove (and add).
 */
defineEventRule('user_group', {
  accepts: (queue, event) => !(AUDIENCE in event) || event[AUDIENCE] === queue.options.capabilities.has('include_deactivated_groups'),
  shape(_queue, event) {
    if (!(AUDIENCE in event)) return event;
    const { [AUDIENCE]: _a, ...rest } = event;
    return rest as ApiEvent;
  },
});

/**
 * Publishes a `user_group` event (SHAPES.md 4.24) after commit to every active user of the
 * realm: groups and their members are visible to everyone in it, guests included.
 * `capable` limits it to clients with (true) or without (false) include_deactivated_groups.
 */
export async function announceUserGroup(ctx: Ctx, tx: Tx, realm: Realm, event: Omit<ApiEvent, 'type'>, capable?: boolean): Promise<void> {
  const body: ApiEvent = { type: 'user_group', ...event };
  if (capable !== undefined) body[AUDIENCE] = capable;
  publishOnCommit(ctx, tx, { realmId: realm.id, userIds: await activeUserIds(tx, realm.id), event: body });
}
