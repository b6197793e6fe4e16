import { changeUserAsOperator } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { REALM_OPTIONS } from '../admin/options.js';
import { selectRealm } from '../admin/realm.js';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError } from '../data-dir.js';
import { orFail } from '../output.js';

const options = {
  ...REALM_OPTIONS,
  email: option({ value: 'EMAIL', description: 'the user whose password changes', required: true }),
  password: option({ value: 'PASSWORD', description: 'the new password (visible to other local users in the process list)', defaultText: 'the first line of standard input' }),
} satisfies OptionTable;

export const changePasswordCommand = defineCommand({
  name: 'change-password',
  summary: "set a user's password",
  description:
    "Sets a user's password. Give it with --password, or on standard input (`printf '%s\\n' \"$PW\" | teamchat change-password --email …`), which keeps it out of the process list.",
  options,
  run: changePassword,
});

async function changePassword(values: OptionValues<typeof options>): Promise<void> {
  const password = values.password ?? (await passwordFromStdin());
  const user = await withInstallation(values, async (ctx) => orFail(await changeUserAsOperator(ctx, await selectRealm(ctx, values.realm), values.email, { password })));
  process.stdout.write(`Changed the password of ${user.deliveryEmail}\n`);
}

/** The first line of standard input, when it is a pipe or file (a terminal gets no prompt: scripts are the use). */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('--password is required (or give the password on standard input)');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new CliError('--password is required (standard input was empty)');
  return line;
}
