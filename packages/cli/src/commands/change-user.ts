import { changeUserAsOperator, closeContext } from '@teamchat/core';
import { defineCommand, type OptionTable, type OptionValues, option, parseTrueOrFalse } from '../command-spec.js';
import { openDataDir, rootRealm } from '../data-dir.js';
import { dataDirOption, jsonOption, parseRole } from '../options.js';
import { orFail, printJson } from '../output.js';

const options = {
  data: dataDirOption,
  email: option({ value: 'EMAIL', description: 'the user to change', required: true }),
  role: option({ value: 'ROLE', description: 'a new role: owner, admin, moderator, member or guest (or 100-600)', parse: parseRole }),
  password: option({ value: 'PASSWORD', description: 'a new password' }),
  'can-create-users': option({ value: 'true|false', kind: 'boolean', description: 'whether the user may create users through the API', parse: parseTrueOrFalse }),
  'can-change-user-emails': option({ value: 'true|false', kind: 'boolean', description: "whether the user may change other users' emails", parse: parseTrueOrFalse }),
  json: jsonOption,
} satisfies OptionTable;

/** What only the operator may change: the reference grants these permissions from its command line only. */
export const changeUserCommand = defineCommand({
  name: 'change-user',
  summary: "change a user's role, password or operator-only permissions",
  options,
  run: changeUser,
});

async function changeUser(values: OptionValues<typeof options>): Promise<void> {
  const ctx = openDataDir(values.data);
  try {
    const realm = await rootRealm(ctx, values.data);
    const user = orFail(
      await changeUserAsOperator(ctx, realm, values.email, {
        role: values.role,
        password: values.password,
        canCreateUsers: values['can-create-users'],
        canChangeUserEmails: values['can-change-user-emails'],
      }),
    );
    const summary = {
      user_id: user.id,
      email: user.deliveryEmail,
      role: user.role,
      can_create_users: user.canCreateUsers,
      can_change_user_emails: user.canChangeUserEmails,
    };
    if (values.json) printJson(summary);
    else process.stdout.write(`Updated ${user.deliveryEmail}: role ${user.role}, can_create_users ${user.canCreateUsers}, can_change_user_emails ${user.canChangeUserEmails}\n`);
  } finally {
    await closeContext(ctx);
  }
}
