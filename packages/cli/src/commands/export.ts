import { resolve } from 'node:path';
import { defineCommand, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { databaseOption, dataDirOption, jsonOption } from '../options.js';
import { printJson } from '../output.js';
import { exportRealm } from '../realm-archive/export-realm.js';
import { openForExport } from '../realm-archive/open-installation.js';
import { terminalProgress } from '../realm-archive/progress.js';

const options = {
  realm: option({ value: 'REALM', description: "the realm: its subdomain ('' for the root realm), URL or ID", required: true }),
  out: option({ value: 'FILE', description: 'where to write the archive (replaced once complete)', required: true }),
  data: dataDirOption,
  database: databaseOption,
  json: jsonOption,
} satisfies OptionTable;

export const exportCommand = defineCommand({
  name: 'export',
  summary: 'export one organisation (realm) into an archive: its rows as JSON, its uploads, a manifest',
  description: `Writes one organisation (realm) into an archive (a gzipped tar): a manifest (format and schema versions, source, time, rows per table), each table's rows of that realm as JSON lines, and its uploaded files and avatars. Nothing of another realm is included. The server may keep running: the rows are read in one consistent snapshot. \`teamchat import\` loads the archive into another installation.`,
  options,
  run: exportOrganisation,
});

async function exportOrganisation(values: OptionValues<typeof options>): Promise<void> {
  const out = resolve(values.out);
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
