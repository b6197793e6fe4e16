import { parseArgs } from 'node:util';
import { closeContext, changeUserAsOperator } from '@teamchat/core';
import { DEFAULT_DATA_DIR, openDataDir, rootRealm } from '../data-dir.js';
import { parseBoolean, parseRole, required } from '../options.js';
import { orFail, printJson } from '../output.js';

export const CHANGE_USER_USAGE = `teamchat change-user --data DIR --email EMAIL [--role ROLE] [--password PASSWORD]
              [--can-create-users true|false] [--can-change-user-emails true|false] [--json]`;

/** What only the operator may change: the reference grants these permissions from its command line only. */
export async function changeUserCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      'can-create-users': { type: 'string' },
      'can-change-user-emails': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const ctx = openDataDir(values.data);
  try {
    const realm = await rootRealm(ctx, values.data);
    const user = orFail(
      await changeUserAsOperator(ctx, realm, required('email', values.email), {
        role: parseRole(values.role),
        password: values.password,
        canCreateUsers: parseBoolean('can-create-users', values['can-create-users']),
        canChangeUserEmails: parseBoolean('can-change-user-emails', values['can-change-user-emails']),
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
