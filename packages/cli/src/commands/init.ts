import { parseArgs } from 'node:util';
import { closeContext, createRealm, ensureNotificationBots } from '@teamchat/core';
import { CliError, DEFAULT_DATA_DIR, isInitialised, openDataDir } from '../data-dir.js';
import { required } from '../options.js';
import { orFail, printJson } from '../output.js';

export const INIT_USAGE = `teamchat init --data DIR --realm-name NAME --email EMAIL --password PASSWORD
              [--full-name NAME] [--url URL] [--json]`;

/** Creates the realm and its owner in an empty data directory. */
export async function initCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      'realm-name': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'full-name': { type: 'string' },
      url: { type: 'string', default: 'http://127.0.0.1:9991' },
      json: { type: 'boolean', default: false },
    },
  });
  const ctx = openDataDir(values.data);
  try {
    if (await isInitialised(ctx)) throw new CliError(`${values.data} is already initialised; refusing to create another realm`);
    const email = required('email', values.email);
    const { realm, owner } = orFail(
      await createRealm(ctx, {
        name: required('realm-name', values['realm-name']),
        url: values.url,
        owner: { email, fullName: values['full-name'] ?? email.split('@')[0]!, password: required('password', values.password) },
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
