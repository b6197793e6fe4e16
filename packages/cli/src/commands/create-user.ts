import { parseArgs } from 'node:util';
import { closeContext, createUserAsOperator } from '@teamchat/core';
import { DEFAULT_DATA_DIR, openDataDir, rootRealm } from '../data-dir.js';
import { parseRole, required } from '../options.js';
import { orFail, printJson } from '../output.js';

export const CREATE_USER_USAGE = `teamchat create-user --data DIR --email EMAIL --full-name NAME
              [--role ROLE] [--password PASSWORD] [--bot] [--json]`;

export async function createUserCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      email: { type: 'string' },
      'full-name': { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      bot: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const ctx = openDataDir(values.data);
  try {
    const realm = await rootRealm(ctx, values.data);
    const user = orFail(
      await createUserAsOperator(ctx, realm, {
        email: required('email', values.email),
        fullName: required('full-name', values['full-name']),
        role: parseRole(values.role),
        password: values.password,
        bot: values.bot,
      }),
    );
    const summary = { user_id: user.id, email: user.deliveryEmail, api_key: user.apiKey };
    if (values.json) printJson(summary);
    else process.stdout.write(`Created ${user.isBot ? 'bot' : 'user'} ${user.deliveryEmail} (id ${user.id})\nAPI key: ${user.apiKey}\n`);
  } finally {
    await closeContext(ctx);
  }
}
