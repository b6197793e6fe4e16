import { closeContext, createUserAsOperator } from '@teamchat/core';
import { defineCommand, flag, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { openDataDir, rootRealm } from '../data-dir.js';
import { dataDirOption, jsonOption, parseRole } from '../options.js';
import { orFail, printJson } from '../output.js';

const options = {
  data: dataDirOption,
  email: option({ value: 'EMAIL', description: 'the new account\'s email address', required: true }),
  'full-name': option({ value: 'NAME', description: 'the new account\'s full name', required: true }),
  role: option({ value: 'ROLE', description: 'owner, admin, moderator, member or guest (or 100-600)', parse: parseRole, defaultText: 'member' }),
  password: option({ value: 'PASSWORD', description: 'a password to log in with (none: API key only)' }),
  bot: flag({ description: 'create a generic bot instead of a person' }),
  json: jsonOption,
} satisfies OptionTable;

export const createUserCommand = defineCommand({
  name: 'create-user',
  summary: 'create a user or a bot in the realm',
  options,
  run: createUser,
});

async function createUser(values: OptionValues<typeof options>): Promise<void> {
  const ctx = openDataDir(values.data);
  try {
    const realm = await rootRealm(ctx, values.data);
    const user = orFail(
      await createUserAsOperator(ctx, realm, {
        email: values.email,
        fullName: values['full-name'],
        role: values.role,
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
