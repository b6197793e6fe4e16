import { regenerateApiKeyAsOperator } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { jsonOption, REALM_OPTIONS } from '../admin/options.js';
import { selectRealm } from '../admin/realm.js';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { orFail, printJson } from '../output.js';

const options = {
  ...REALM_OPTIONS,
  email: option({ value: 'EMAIL', description: 'the user (or bot) whose key is replaced', required: true }),
  json: jsonOption,
} satisfies OptionTable;

export const regenerateApiKeyCommand = defineCommand({
  name: 'regenerate-api-key',
  summary: "replace a user's or bot's API key (the old one stops working)",
  options,
  run: regenerateApiKey,
});

async function regenerateApiKey(values: OptionValues<typeof options>): Promise<void> {
  const user = await withInstallation(values, async (ctx) => orFail(await regenerateApiKeyAsOperator(ctx, await selectRealm(ctx, values.realm), values.email)));
  if (values.json) return printJson({ user_id: user.id, email: user.deliveryEmail, api_key: user.apiKey });
  process.stdout.write(`New API key of ${user.deliveryEmail}: ${user.apiKey}\n`);
}
