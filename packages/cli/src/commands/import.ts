import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError } from '../data-dir.js';
import { databaseOption, dataDirOption, jsonOption } from '../options.js';
import { printJson } from '../output.js';
import type { RealmDump } from '../realm-archive/archive-files.js';
import { importRealm } from '../realm-archive/import-realm.js';
import { openForImport } from '../realm-archive/open-installation.js';
import { terminalProgress } from '../realm-archive/progress.js';
import { readRealmArchive } from '../realm-archive/read-archive.js';
import { readZulipExport } from '../realm-archive/zulip/read-zulip-export.js';

const options = {
  archive: option({ value: 'FILE', description: 'an archive written by `teamchat export`' }),
  'from-zulip': option({ value: 'PATH', description: 'a Zulip organisation export: the directory or .tar.gz `manage.py export` writes' }),
  data: dataDirOption,
  database: databaseOption,
  subdomain: option({ value: 'NAME', description: "the new realm's subdomain ('' for the root realm)", defaultText: "the source's" }),
  url: option({ value: 'URL', description: "the new realm's URL, e.g. https://chat.example.com (required with --from-zulip)", defaultText: "the source's" }),
  json: jsonOption,
} satisfies OptionTable;

export const importCommand = defineCommand({
  name: 'import',
  summary: 'import an organisation (a `teamchat export` archive or a Zulip export) as a new realm',
  description: `Loads an organisation into this installation as a new realm, next to the realms it already has. Every ID is renumbered (users, channels, messages, groups, attachments, emoji, …) together with every reference to it, including those inside message content. The whole import is one transaction: if anything fails, nothing of it remains. A realm whose subdomain or URL is already in use here is refused. Give one of --archive and --from-zulip. Users imported from Zulip get no password (its export has none) and new API keys: set passwords with \`teamchat change-user --email E --password P\`. Stop a server running on the data directory first; on PostgreSQL, restart the servers afterwards.`,
  options,
  run: importOrganisation,
});

async function importOrganisation(values: OptionValues<typeof options>): Promise<void> {
  const zulip = values['from-zulip'];
  if ((values.archive === undefined) === (zulip === undefined)) throw new CliError('give one of --archive and --from-zulip');
  if (zulip !== undefined && values.url === undefined) throw new CliError('--url is required with --from-zulip: a Zulip export does not name its server');
  const flag = values.archive !== undefined ? 'archive' : 'from-zulip';
  const source = resolve((values.archive ?? zulip)!);
  if (!existsSync(source)) throw new CliError(`--${flag}: ${source} does not exist`);
  if (values.archive !== undefined && !statSync(source).isFile()) throw new CliError(`--archive: ${source} is not a file`);

  // Unpacked privately: the archive holds password hashes and API keys.
  const staging = mkdtempSync(join(tmpdir(), 'teamchat-import-'));
  try {
    // Read and checked before the installation is touched: a bad archive changes nothing.
    const dump: RealmDump = values.archive !== undefined ? (await readRealmArchive(source, staging)).dump : await readZulipExport(source, staging);
    const installation = await openForImport(values.data, values.database);
    try {
      const report = await importRealm({
        ...installation,
        dump,
        subdomain: values.subdomain,
        url: values.url,
        progress: terminalProgress(process.stderr, 'importing'),
      });
      if (values.json) printJson(report);
      else {
        process.stdout.write(
          `Imported realm ${report.realmId} at ${report.url}${report.subdomain ? ` (subdomain ${report.subdomain})` : ''}: ` +
            `${report.tables.user ?? 0} users, ${report.tables.stream ?? 0} channels, ${report.tables.message ?? 0} messages, ${report.files} files\n`,
        );
        if (zulip !== undefined) process.stdout.write('Imported users have no password: set one with `teamchat change-user --email E --password P`.\n');
      }
    } finally {
      await installation.close();
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
