import { systemGroupId } from '../access/system-groups.js';
import type { StoredUserGroup } from '../storage/types.js';

/**
 * A user group as the API sends it (openapi `UserGroup`, SHAPES.md 4.24). Subgroups and
 * per-group permission settings are not stored yet: every group has no subgroups and the
 * reference's defaults for a new group (its creator manages it; everyone may mention it and
 * leave it; nobody else joins or adds or removes members without managing it).
 */
export function formatUserGroup(group: StoredUserGroup) {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: [...group.members],
    direct_subgroup_ids: [] as number[],
    creator_id: group.creatorId,
    date_created: group.dateCreated,
    is_system_group: false,
    deactivated: group.deactivated,
    can_add_members_group: systemGroupId('role:nobody'),
    can_join_group: systemGroupId('role:nobody'),
    can_leave_group: systemGroupId('role:everyone'),
    can_manage_group: { direct_members: group.creatorId === null ? [] : [group.creatorId], direct_subgroups: [] as number[] },
    can_mention_group: systemGroupId('role:everyone'),
    can_remove_members_group: systemGroupId('role:nobody'),
  };
}
