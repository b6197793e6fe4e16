import { closeContext, createRealm, ensureNotificationBots } from '@teamchat/core';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError, isInitialised, openDataDir } from '../data-dir.js';
import { dataDirOption, jsonOption } from '../options.js';
import { orFail, printJson } from '../output.js';

const options = {
  data: dataDirOption,
  'realm-name': option({ value: 'NAME', description: "the realm's name", required: true }),
  email: option({ value: 'EMAIL', description: "the owner's email address", required: true }),
  password: option({ value: 'PASSWORD', description: "the owner's password", required: true }),
  'full-name': option({ value: 'NAME', description: "the owner's full name", defaultText: "the email's local part" }),
  url: option({ value: 'URL', description: "the realm's public URL", default: 'http://127.0.0.1:9991' }),
  json: jsonOption,
} satisfies OptionTable;

export const initCommand = defineCommand({
  name: 'init',
  summary: 'create the realm and its owner in an empty data directory',
  options,
  run: init,
});

async function init(values: OptionValues<typeof options>): Promise<void> {
  const ctx = openDataDir(values.data);
  try {
    if (await isInitialised(ctx)) throw new CliError(`${values.data} is already initialised; refusing to create another realm`);
    const email = values.email;
    const { realm, owner } = orFail(
      await createRealm(ctx, {
        name: values['realm-name'],
        url: values.url,
        owner: { email, fullName: values['full-name'] ?? email.split('@')[0]!, password: values.password },
      }),
    );
    // The reference's realms have their system bots from the start.
    await ensureNotificationBots(ctx);
    const summary = { realm_url: realm.url, user_id: owner.id, email: owner.deliveryEmail, api_key: owner.apiKey };
    if (values.json) printJson(summary);
    else process.stdout.write(`Created realm ${realm.name} at ${realm.url}\nOwner: ${owner.deliveryEmail}\nAPI key: ${owner.apiKey}\n`);
  } finally {
    await closeContext(ctx);
  }
}
