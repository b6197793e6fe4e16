import { changeUserAsOperator } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { jsonOption, REALM_OPTIONS } from '../admin/options.js';
import { selectRealm } from '../admin/realm.js';
import { roleName, userSummary } from '../admin/users.js';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { parseRole } from '../options.js';
import { orFail, printJson } from '../output.js';

const options = {
  ...REALM_OPTIONS,
  email: option({ value: 'EMAIL', description: 'the user whose role changes', required: true }),
  role: option({ value: 'ROLE', description: 'the new role: owner, admin, moderator, member or guest (or 100-600)', required: true, parse: parseRole }),
  json: jsonOption,
} satisfies OptionTable;

export const changeUserRoleCommand = defineCommand({
  name: 'change-user-role',
  summary: "change a user's role (owner, admin, moderator, member, guest)",
  options,
  run: changeUserRole,
});

async function changeUserRole(values: OptionValues<typeof options>): Promise<void> {
  const user = await withInstallation(values, async (ctx) => orFail(await changeUserAsOperator(ctx, await selectRealm(ctx, values.realm), values.email, { role: values.role })));
  if (values.json) return printJson(userSummary(user));
  process.stdout.write(`${user.deliveryEmail} is now ${roleName(user.role)} (${user.role})\n`);
}
