import { findUserAsOperator } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { REALM_OPTIONS } from '../admin/options.js';
import { selectRealm } from '../admin/realm.js';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError } from '../data-dir.js';
import { orFail, zuliprc } from '../output.js';

const options = {
  ...REALM_OPTIONS,
  email: option({ value: 'EMAIL', description: 'the user (or bot) the file logs in as', required: true }),
} satisfies OptionTable;

export const printZuliprcCommand = defineCommand({
  name: 'print-zuliprc',
  summary: "print a .zuliprc (email, API key, site) for a user or bot, for the reference's clients",
  options,
  run: printZuliprc,
});

async function printZuliprc(values: OptionValues<typeof options>): Promise<void> {
  const text = await withInstallation(values, async (ctx) => {
    const realm = await selectRealm(ctx, values.realm);
    const user = orFail(await findUserAsOperator(ctx, realm, values.email));
    if (!user.isActive) throw new CliError(`${user.deliveryEmail} is deactivated: its key does not work (reactivate-user first)`);
    return zuliprc(user.deliveryEmail, user.apiKey, realm.url);
  });
  process.stdout.write(text);
}
