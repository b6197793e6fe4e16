import { createRealm, ensureNotificationBots, listRealms, type Realm } from '@teamchat/core';
import { isIP } from 'node:net';
import { withInstallation } from '../admin/context.js';
import { INSTALLATION_OPTIONS, jsonOption } from '../admin/options.js';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError } from '../data-dir.js';
import { orFail, printJson } from '../output.js';

const options = {
  ...INSTALLATION_OPTIONS,
  subdomain: option({ value: 'SUBDOMAIN', description: "the new realm's subdomain (lowercase letters, digits, hyphens)", required: true }),
  name: option({ value: 'NAME', description: "the new realm's name", required: true }),
  url: option({ value: 'URL', description: "the new realm's URL, on a host no other realm uses", defaultText: "https://SUBDOMAIN.<the root realm's host>" }),
  email: option({ value: 'EMAIL', description: "the first owner's email address", required: true }),
  password: option({ value: 'PASSWORD', description: "the first owner's password", defaultText: 'none: API key only' }),
  'full-name': option({ value: 'NAME', description: "the first owner's full name", defaultText: "the email's local part" }),
  json: jsonOption,
} satisfies OptionTable;

export const createRealmCommand = defineCommand({
  name: 'create-realm',
  summary: 'create another realm (organization) in the installation, served on its own host name',
  description:
    "Creates another realm and its first owner. Every realm is served by the same server: a request goes to the realm whose URL has the request's Host, else to the realm whose subdomain is the Host's first label, else to the root realm. Point the new host name (e.g. sales.chat.example.com) at the server, and with a reverse proxy pass the Host header on.",
  options,
  run: createRealmRun,
});

async function createRealmRun(values: OptionValues<typeof options>): Promise<void> {
  const created = await withInstallation(values, async (ctx) => {
    const url = values.url ?? defaultUrl(await listRealms(ctx), values.subdomain);
    const email = values.email;
    const result = orFail(
      await createRealm(ctx, {
        name: values.name,
        url,
        subdomain: values.subdomain,
        owner: { email, fullName: values['full-name'] ?? email.split('@')[0]!, password: values.password },
      }),
    );
    await ensureNotificationBots(ctx);
    return result;
  });
  const { realm, owner } = created;
  const summary = { realm_id: realm.id, subdomain: realm.subdomain, realm_url: realm.url, user_id: owner.id, email: owner.deliveryEmail, api_key: owner.apiKey };
  if (values.json) return printJson(summary);
  process.stdout.write(`Created realm ${realm.name} (id ${realm.id}) at ${realm.url}\nOwner: ${owner.deliveryEmail}\nAPI key: ${owner.apiKey}\n`);
}

/** The root realm's URL with the subdomain before its host name: sales + https://chat.example.com. */
function defaultUrl(realms: readonly Realm[], subdomain: string): string {
  const root = realms.find((realm) => realm.subdomain === '');
  const base = root ? new URL(root.url) : undefined;
  if (!base || isIP(base.hostname.replace(/^\[|\]$/g, '')) !== 0) {
    throw new CliError(`--url is required: the root realm's URL (${root?.url ?? 'none'}) has no host name to put '${subdomain}.' before`);
  }
  base.hostname = `${subdomain}.${base.hostname}`;
  return base.toString().replace(/\/+$/, '');
}
