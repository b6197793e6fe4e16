import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, DEFAULT_DATA_DIR } from '../data-dir.js';
import { printJson } from '../output.js';
import type { RealmDump } from '../realm-archive/archive-files.js';
import { importRealm } from '../realm-archive/import-realm.js';
import { openForImport } from '../realm-archive/open-installation.js';
import { terminalProgress } from '../realm-archive/progress.js';
import { readRealmArchive } from '../realm-archive/read-archive.js';
import { readZulipExport } from '../realm-archive/zulip/read-zulip-export.js';

export const IMPORT_USAGE = `teamchat import (--archive FILE | --from-zulip DIR_OR_TARBALL) [--data DIR] [--database URL]
                [--subdomain NAME] [--url URL] [--json]`;

const IMPORT_HELP = `${IMPORT_USAGE}

Loads an organisation into this installation as a new realm, next to the realms it already has.
Every ID is renumbered (users, channels, messages, groups, attachments, emoji, …) together with
every reference to it, including those inside message content. The whole import is one
transaction: if anything fails, nothing of it remains. A realm whose subdomain or URL is already
in use here is refused.

  --archive FILE     an archive written by \`teamchat export\`
  --from-zulip PATH  a Zulip organisation export (the directory or .tar.gz \`manage.py export\` writes);
                     its users get no password (the export has none) and new API keys: the operator
                     sets passwords with \`teamchat change-user --email E --password P\`
  --data DIR         the data directory (default ${DEFAULT_DATA_DIR}; created if missing); files go to its uploads.
                     A server running on DIR must be stopped first
  --database URL     write a PostgreSQL database instead of DIR's SQLite file (or TEAMCHAT_DATABASE_URL);
                     restart its servers afterwards
  --subdomain NAME   the new realm's subdomain (default: the source's)
  --url URL          the new realm's URL, e.g. https://chat.example.com (default: the source's;
                     required with --from-zulip)
  --json             print the report as JSON
`;

export async function importCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      archive: { type: 'string' },
      'from-zulip': { type: 'string' },
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      database: { type: 'string' },
      subdomain: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(IMPORT_HELP);
    return;
  }
  const zulip = values['from-zulip'];
  if ((values.archive === undefined) === (zulip === undefined)) throw new CliError(`give one of --archive and --from-zulip\n  ${IMPORT_USAGE}`);
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
