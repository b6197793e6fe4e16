/** Display names of people, channels and conversations, shared by the sidebar, views and compose. */
import type { Person } from '../stores/types';

export function personName(people: ReadonlyMap<number, Person>, id: number): string {
  return people.get(id)?.full_name ?? `User ${id}`;
}

/** "Ann, Bob and Cy" for a direct conversation's other participants. */
export function conversationName(people: ReadonlyMap<number, Person>, userIds: readonly number[]): string {
  const names = userIds.map((id) => personName(people, id));
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The reference's resolved-topic prefix. */
export const RESOLVED_PREFIX = '✔ ';

export function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_PREFIX);
}
