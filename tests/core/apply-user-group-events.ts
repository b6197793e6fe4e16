/**
 * The client half of verify_action for `realm_user_groups` (the reference's apply_event for
 * user_group events): applied to a snapshot, a queue's events must give a fresh snapshot.
 */
import type { ApiUserGroup, UserGroupEvent } from '@teamchat/core';
import { isEvent, type LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';

type Group = ApiUserGroup;

const union = (a: readonly number[], b: readonly number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);

/** Applies one user_group event to `groups` in place. */
export function applyUserGroupEvent(groups: Group[], event: UserGroupEvent): void {
  if (event.op === 'add') {
    groups.push(structuredClone(event.group));
    groups.sort((a, b) => a.id - b.id);
    return;
  }
  const index = groups.findIndex((g) => g.id === event.group_id);
  if (index < 0) throw new Error(`user_group ${event.op} for unknown group ${event.group_id}`);
  const group = groups[index]!;
  switch (event.op) {
    case 'remove':
      groups.splice(index, 1);
      return;
    case 'update':
      Object.assign(group, event.data);
      return;
    case 'add_members':
      group.members = union(group.members, event.user_ids);
      return;
    case 'remove_members':
      group.members = group.members.filter((id) => !event.user_ids.includes(id));
      return;
    case 'add_subgroups':
      group.direct_subgroup_ids = union(group.direct_subgroup_ids, event.direct_subgroup_ids);
      return;
    case 'remove_subgroups':
      group.direct_subgroup_ids = group.direct_subgroup_ids.filter((id) => !event.direct_subgroup_ids.includes(id));
      return;
    default: {
      const unknownOp: never = event;
      throw new Error(`unknown user_group event ${JSON.stringify(unknownOp)}`);
    }
  }
}

/** What a client does on realm_user deactivation (API.md 6): the user leaves every group's member list. */
export function dropDeactivatedMember(groups: Group[], userId: number): void {
  for (const group of groups) group.members = group.members.filter((id) => id !== userId);
}

/** Applies the queue's user_group events to a register snapshot's realm_user_groups. */
export function applyUserGroupEvents(before: readonly Group[], events: readonly QueuedEvent[]): Group[] {
  const groups = structuredClone(before) as Group[];
  for (const event of events) {
    if (isEvent(event, 'user_group')) applyUserGroupEvent(groups, event);
    const person = event.person as { user_id: number; is_active?: boolean } | undefined;
    if (event.type === 'realm_user' && person?.is_active === false) dropDeactivatedMember(groups, person.user_id);
  }
  return groups;
}
