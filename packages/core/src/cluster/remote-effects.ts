/**
 * What a node does on its own when another node's event says so: work the committing node
 * does in an after-commit step for its own process only, and that every node must do for the
 * state it holds in memory.
 */
import type { EventBus } from '../events/bus.js';
import type { QueueRegistry } from '../events/queues.js';
import { ROLE } from '../storage/types.js';

/**
 * A deactivated account's queues are dropped on every node, not only where the deactivation
 * committed (users/changes.ts drops that node's): the realm_user update that says so reaches
 * every node's bus. Dropping queues twice is harmless. Likewise a role change to or from
 * guest: every node's all_public_streams queues of that user start or stop taking public
 * channels' messages.
 */
export function followRemoteEffects(bus: EventBus, queues: QueueRegistry): () => void {
  return bus.subscribe(({ event }) => {
    if (event.type !== 'realm_user' || event.op !== 'update') return;
    const person = event.person as { user_id?: number; is_active?: boolean; role?: number };
    if (typeof person.user_id !== 'number') return;
    if (person.is_active === false) queues.deleteUserQueues(person.user_id);
    if (typeof person.role === 'number') queues.setReadsPublicChannels(person.user_id, person.role !== ROLE.guest);
  });
}
