import { ROLE, type Role, ROLES } from '@teamchat/core';
import { CliError } from './data-dir.js';

const ROLE_NAMES: Record<string, Role> = {
  owner: ROLE.owner,
  admin: ROLE.admin,
  administrator: ROLE.admin,
  moderator: ROLE.moderator,
  member: ROLE.member,
  guest: ROLE.guest,
};

/** A role given as its number (100…600) or its name (owner, admin, moderator, member, guest). */
export function parseRole(value: string | undefined): Role | undefined {
  if (value === undefined) return undefined;
  const role = ROLE_NAMES[value.toLowerCase()] ?? (Number(value) as Role);
  if (!ROLES.includes(role)) throw new CliError(`invalid role '${value}': use owner, admin, moderator, member, guest or 100-600`);
  return role;
}

export function parseBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new CliError(`--${name} takes true or false, not '${value}'`);
}

export function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new CliError(`--${name} is required`);
  return value;
}
