import { listRealms } from '@teamchat/core';
import { withInstallation } from '../admin/context.js';
import { INSTALLATION_OPTIONS, jsonOption } from '../admin/options.js';
import { defineCommand, type OptionTable, type OptionValues } from '../command-spec.js';
import { printJson } from '../output.js';

const options = { ...INSTALLATION_OPTIONS, json: jsonOption } satisfies OptionTable;

export const listRealmsCommand = defineCommand({
  name: 'list-realms',
  summary: "list the installation's realms (ID, subdomain, URL, name)",
  description:
    "Lists the installation's realms: ID, subdomain (empty for the root realm), URL and name. A request is served by the realm whose URL has the request's host, else the realm whose subdomain is the host's first label, else the root realm.",
  options,
  run: listRealmsRun,
});

async function listRealmsRun(values: OptionValues<typeof options>): Promise<void> {
  const realms = await withInstallation(values, listRealms);
  const rows = realms.map((realm) => ({
    id: realm.id,
    subdomain: realm.subdomain,
    name: realm.name,
    url: realm.url,
    deactivated: realm.deactivated,
    date_created: realm.dateCreated,
  }));
  if (values.json) return printJson(rows);
  process.stdout.write(`${'id'.padEnd(4)} ${'subdomain'.padEnd(16)} ${'url'.padEnd(40)} name\n`);
  for (const r of rows) {
    process.stdout.write(`${String(r.id).padEnd(4)} ${(r.subdomain || '(root)').padEnd(16)} ${r.url.padEnd(40)} ${r.name}${r.deactivated ? ' (deactivated)' : ''}\n`);
  }
}
