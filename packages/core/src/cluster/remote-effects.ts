/**
 * What a node does on its own when another node's event says so: work the committing node
 * does in an after-commit step for its own process only, and that every node must do for the
 * state it holds in memory.
 */
import type { EventBus } from '../events/bus.js';
import type { QueueRegistry } from '../events/queues.js';

/**
 * A deactivated account's queues are dropped on every node, not only where the deactivation
 * committed (users/changes.ts drops that node's): the realm_user update that says so reaches
 * every node's bus. Dropping queues twice is harmless.
 */
export function followRemoteEffects(bus: EventBus, queues: QueueRegistry): () => void {
  return bus.subscribe(({ event }) => {
    if (event.type !== 'realm_user' || event.op !== 'update') return;
    const person = event.person as { user_id?: number; is_active?: boolean };
    if (person.is_active === false && typeof person.user_id === 'number') queues.deleteUserQueues(person.user_id);
  });
}
