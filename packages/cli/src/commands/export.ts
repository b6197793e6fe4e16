import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, DEFAULT_DATA_DIR } from '../data-dir.js';
import { required } from '../options.js';
import { printJson } from '../output.js';
import { exportRealm } from '../realm-archive/export-realm.js';
import { openForExport } from '../realm-archive/open-installation.js';
import { terminalProgress } from '../realm-archive/progress.js';

export const EXPORT_USAGE = 'teamchat export --realm REALM --out FILE [--data DIR] [--database URL] [--json]';

const EXPORT_HELP = `${EXPORT_USAGE}

Writes one organisation (realm) into an archive (a gzipped tar): a manifest, each table's rows of
that realm as JSON lines, and its uploaded files and avatars. Nothing of another realm is
included. The server may keep running: the rows are read in one consistent snapshot.

  --realm REALM   the realm's subdomain ('' for the root realm), URL or ID (required)
  --out FILE      where to write the archive (required; replaced once complete)
  --data DIR      the data directory (default ${DEFAULT_DATA_DIR}); its uploads are read
  --database URL  read a PostgreSQL database instead of DIR's SQLite file (or TEAMCHAT_DATABASE_URL)
  --json          print the manifest as JSON instead of a summary
`;

export async function exportCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      realm: { type: 'string' },
      out: { type: 'string' },
      data: { type: 'string', default: DEFAULT_DATA_DIR },
      database: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(EXPORT_HELP);
    return;
  }
  // '' is a valid answer (the root realm), so only a missing flag is refused.
  if (values.realm === undefined) throw new CliError(`--realm is required\n  ${EXPORT_USAGE}`);
  const out = resolve(required('out', values.out));
  const installation = await openForExport(values.data, values.database);
  try {
    const manifest = await exportRealm({ ...installation, realm: values.realm, out, progress: terminalProgress(process.stderr, 'exporting') });
    if (values.json) printJson(manifest);
    else {
      const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
      process.stdout.write(
        `Exported realm ${manifest.source.name} (${manifest.source.url}) to ${out}: ${rows} rows in ${Object.keys(manifest.tables).length} tables, ` +
          `${manifest.tables.message ?? 0} messages, ${manifest.uploads.files} files\n`,
      );
    }
  } finally {
    await installation.close();
  }
}
