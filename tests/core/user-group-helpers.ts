/** Shared calls of the user-group tests: create, list, and the group endpoints with JSON form values. */
import { type ApiUserGroup, doCreateUserGroup, doUpdateUserGroupMembers, getUserGroups, type User } from '@teamchat/core';
import { must } from '../helpers/core.js';
import type { ChannelWorld } from './channel-helpers.js';

export type Group = ApiUserGroup;

/** Creates a group as `user` (the member by default); extra form fields as given. */
export async function createGroup(c: ChannelWorld, name: string, members: number[] = [], user: User = c.member, extra: Record<string, string> = {}): Promise<number> {
  const created = must(await doCreateUserGroup(c.w.ctx, c.w.as(user), { name, description: 'A team', members: members, ...extra }));
  return (created).group_id;
}

/** GET /user_groups as `user`, deactivated groups included when asked. */
export async function listGroups(c: ChannelWorld, user: User = c.member, includeDeactivated = false): Promise<Group[]> {
  const params = includeDeactivated ? { include_deactivated_groups: 'true' } : {};
  return must(await getUserGroups.fromTransport(c.w.ctx, c.w.as(user), params)).user_groups;
}

/** One group of the listing. */
export const groupById = async (c: ChannelWorld, id: number, includeDeactivated = true) => (await listGroups(c, c.member, includeDeactivated)).find((g) => g.id === id);

/** POST /user_groups/{id}/members with JSON lists. */
export const changeMembers = (c: ChannelWorld, id: number, change: Record<string, number[]>, user: User = c.member) =>
  doUpdateUserGroupMembers(c.w.ctx, c.w.as(user), { user_group_id: id, ...Object.fromEntries(Object.entries(change).map(([k, v]) => [k, JSON.stringify(v)])) });
