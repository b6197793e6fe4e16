import { listUsersAsOperator } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { jsonOption, REALM_OPTIONS } from '../admin/options.js';
import { selectRealm } from '../admin/realm.js';
import { userSummary } from '../admin/users.js';
import { defineCommand, flag, type OptionTable, type OptionValues } from '../command-spec.js';
import { printJson } from '../output.js';

const options = {
  ...REALM_OPTIONS,
  all: flag({ description: 'include deactivated users' }),
  json: jsonOption,
} satisfies OptionTable;

export const listUsersCommand = defineCommand({
  name: 'list-users',
  summary: "list a realm's users and bots (ID, email, role, name)",
  options,
  run: listUsers,
});

async function listUsers(values: OptionValues<typeof options>): Promise<void> {
  const users = await withInstallation(values, async (ctx) => listUsersAsOperator(ctx, await selectRealm(ctx, values.realm)));
  const rows = users.filter((user) => values.all || user.isActive).map(userSummary);
  if (values.json) return printJson(rows);
  process.stdout.write(`${'id'.padEnd(6)} ${'email'.padEnd(36)} ${'role'.padEnd(10)} name\n`);
  for (const u of rows) {
    const notes = [u.is_bot ? 'bot' : undefined, u.is_active ? undefined : 'deactivated'].filter(Boolean);
    process.stdout.write(`${String(u.user_id).padEnd(6)} ${u.email.padEnd(36)} ${u.role_name.padEnd(10)} ${u.full_name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}\n`);
  }
}
