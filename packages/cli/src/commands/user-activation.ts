import { deactivateUserAsOperator, reactivateUserAsOperator } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { jsonOption, REALM_OPTIONS } from '../admin/options.js';
import { selectRealm } from '../admin/realm.js';
import { userSummary } from '../admin/users.js';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { orFail, printJson } from '../output.js';

const options = {
  ...REALM_OPTIONS,
  email: option({ value: 'EMAIL', description: 'the user (or bot)', required: true }),
  json: jsonOption,
} satisfies OptionTable;

export const deactivateUserCommand = defineCommand({
  name: 'deactivate-user',
  summary: 'deactivate a user (with the bots they own) or a bot',
  description:
    'Deactivates a user, with the bots they own, or a bot: they can no longer log in or use the API, and their sessions end. Refuses the only owner of a realm.',
  options,
  run: (values) => changeActivation(values, 'deactivate'),
});

export const reactivateUserCommand = defineCommand({
  name: 'reactivate-user',
  summary: 'reactivate a deactivated user or bot',
  options,
  run: (values) => changeActivation(values, 'reactivate'),
});

async function changeActivation(values: OptionValues<typeof options>, change: 'deactivate' | 'reactivate'): Promise<void> {
  const user = await withInstallation(values, async (ctx) => {
    const realm = await selectRealm(ctx, values.realm);
    return orFail(change === 'deactivate' ? await deactivateUserAsOperator(ctx, realm, values.email) : await reactivateUserAsOperator(ctx, realm, values.email));
  });
  if (values.json) return printJson(userSummary(user));
  process.stdout.write(`${change === 'deactivate' ? 'Deactivated' : 'Reactivated'} ${user.deliveryEmail} (id ${user.id})\n`);
}
