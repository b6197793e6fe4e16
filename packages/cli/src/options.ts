/** Options and value parsers that several commands share. */
import { ROLE, type Role, ROLES } from '@teamchat/core';
import { flag, option } from './command-spec.js';
import { CliError, DEFAULT_DATA_DIR } from './data-dir.js';

const ROLE_NAMES: Record<string, Role> = {
  owner: ROLE.owner,
  admin: ROLE.admin,
  administrator: ROLE.admin,
  moderator: ROLE.moderator,
  member: ROLE.member,
  guest: ROLE.guest,
};

/** A role given as its number (100…600) or its name (owner, admin, moderator, member, guest). */
export function parseRole(value: string, source: string): Role {
  const role = ROLE_NAMES[value.toLowerCase()] ?? (Number(value) as Role);
  if (!ROLES.includes(role)) throw new CliError(`${source}: invalid role '${value}': use owner, admin, moderator, member, guest or 100-600`);
  return role;
}

/** A PostgreSQL connection URL. */
export function parsePostgresUrl(value: string, source: string): string {
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new CliError(`${source} takes a postgres:// URL, not '${value}' (without it the data directory's SQLite file is used)`);
  }
  return value;
}

export const dataDirOption = option({ value: 'DIR', description: 'the data directory', default: DEFAULT_DATA_DIR });

/** A PostgreSQL database instead of the data directory's SQLite file (uploads stay in the data directory). */
export const databaseOption = option({
  value: 'URL',
  description: "a PostgreSQL database (postgres://…) instead of the data directory's SQLite file",
  env: 'TEAMCHAT_DATABASE_URL',
  parse: parsePostgresUrl,
});

export const jsonOption = flag({ description: 'print the result as JSON' });
