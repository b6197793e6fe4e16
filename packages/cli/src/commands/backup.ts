import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { create as createTar } from 'tar';
import { ARCHIVE_FORMAT, type BackupManifest, countRows, FORMAT_VERSION, MANIFEST_FILE } from '../backup/archive-format.js';
import { defineCommand, flag, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { CliError, DATABASE_FILE, databasePath, uploadsPath } from '../data-dir.js';
import { dataDirOption } from '../options.js';
import { printJson } from '../output.js';

/** Pages copied per step after the first: the rest of the database at once (a WAL read does not block the server's writes). */
const PAGES_PER_STEP = 1 << 20;

const options = {
  data: dataDirOption,
  out: option({ value: 'FILE', description: 'where to write the archive', required: true }),
  json: flag({ description: 'print the manifest as JSON instead of a summary' }),
} satisfies OptionTable;

export const backupCommand = defineCommand({
  name: 'backup',
  summary: "back up a data directory's database and uploads into one archive while the server runs",
  description: `Writes one archive (a gzipped tar) holding a consistent copy of the data directory's database, its uploads and a manifest, while the server keeps running. An existing FILE is replaced once the new archive is complete.`,
  options,
  run: backup,
});

async function backup(values: OptionValues<typeof options>): Promise<void> {
  const out = resolve(values.out);
  if (!existsSync(dirname(out))) throw new CliError(`--out: the directory ${dirname(out)} does not exist`);
  if (!existsSync(databasePath(values.data))) throw new CliError(`--data: ${resolve(values.data)} has no database (${DATABASE_FILE})`);

  // Staged beside the output: the database copy is as large as the database, and the output's disk was chosen for it.
  const staging = mkdtempSync(join(dirname(out), '.teamchat-backup-'));
  const partial = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.partial`);
  try {
    const manifest = await stage(values.data, staging);
    await createTar({ gzip: true, file: partial, cwd: staging, portable: true, follow: true, filter: (path) => !path.endsWith('.tmp') }, [
      ...readdirSync(staging).sort(),
    ]);
    renameSync(partial, out);
    if (values.json) printJson(manifest);
    else {
      const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
      process.stdout.write(
        `Backed up ${resolve(values.data)} to ${out}: schema version ${manifest.schema_version}, ` +
          `${Object.keys(manifest.tables).length} tables, ${rows} rows, ${manifest.uploads.files} uploaded files\n`,
      );
    }
  } finally {
    rmSync(partial, { force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Fills `staging` with what the archive holds. The database is copied first, through SQLite's
 * online backup on a connection of this process, so it is one consistent snapshot however many
 * writes the server commits meanwhile. Uploads are taken after it: a file uploaded since is an
 * orphan the server's sweep removes; uploads are never rewritten in place (the blob store writes
 * a temporary file and renames it), so each file is whole.
 */
async function stage(dataDir: string, staging: string): Promise<BackupManifest> {
  const copyPath = join(staging, DATABASE_FILE);
  const source = new Database(databasePath(dataDir), { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(copyPath, { progress: () => PAGES_PER_STEP });
  } finally {
    source.close();
  }
  const copy = new Database(copyPath, { fileMustExist: true });
  let manifest: BackupManifest;
  try {
    // A self-contained file: no -wal beside it in the archive.
    copy.pragma('journal_mode = DELETE');
    manifest = {
      format: ARCHIVE_FORMAT,
      format_version: FORMAT_VERSION,
      schema_version: copy.pragma('user_version', { simple: true }) as number,
      created_at: new Date().toISOString(),
      tables: countRows(copy),
      uploads: { files: 0, bytes: 0 },
    };
  } finally {
    copy.close();
  }
  const uploads = uploadsPath(dataDir);
  if (existsSync(uploads)) {
    manifest.uploads = measureFiles(uploads);
    // Archived through the link (tar's `follow`), so the uploads are not copied twice on disk.
    symlinkSync(uploads, join(staging, 'uploads'));
  }
  const rc = join(resolve(dataDir), 'zuliprc');
  if (existsSync(rc)) copyFileSync(rc, join(staging, 'zuliprc'));
  writeFileSync(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Files and bytes under `dir`, leaving out the blob store's temporary files (uploads in progress). */
function measureFiles(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.tmp')) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}
