import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { defineCommand, flag, type OptionTable, type OptionValues, option } from '../command-spec.js';
import { type BackupManifest, countRows, isArchiveEntry, MANIFEST_FILE, parseManifest } from '../backup/archive-format.js';
import { CliError, DATABASE_FILE, DEFAULT_DATA_DIR, makeDataDirPrivate } from '../data-dir.js';
import { holdDataDirLock, LOCK_FILE } from '../data-dir-lock.js';
import { extractExpectedEntries } from '../safe-extract.js';

const options = {
  archive: option({ value: 'FILE', description: 'the archive written by `teamchat backup`', required: true }),
  data: option({ value: 'DIR', description: 'the data directory to restore into (created if missing)', default: DEFAULT_DATA_DIR }),
  force: flag({ description: 'replace the contents of a non-empty directory (its server must be stopped)' }),
} satisfies OptionTable;

export const restoreCommand = defineCommand({
  name: 'restore',
  summary: 'restore a `teamchat backup` archive into a data directory',
  description: `Restores a \`teamchat backup\` archive into a data directory. The archive is unpacked and checked (manifest, database integrity, every table's row count) before anything in the directory changes. Refuses a directory that a running server uses, and a directory that is not empty unless --force is given.`,
  options,
  run: restore,
});

async function restore(values: OptionValues<typeof options>): Promise<void> {
  const archive = resolve(values.archive);
  if (!existsSync(archive) || !statSync(archive).isFile()) throw new CliError(`--archive: ${archive} is not a file`);
  const dir = resolve(values.data);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CliError(`--data: ${dir} is not a directory`);

  // Private from the start: what the archive unpacks is created 0700/0600 under this umask.
  makeDataDirPrivate(dir);
  // Held until the restore ends: a server started meanwhile refuses the directory.
  const release = holdDataDirLock(dir, 'restore');
  const staging = join(dir, `.restore-${randomBytes(6).toString('hex')}`);
  try {
    const existing = readdirSync(dir).filter((name) => name !== LOCK_FILE);
    if (existing.length > 0 && !values.force) {
      throw new CliError(`--data: ${dir} is not empty (${existing.slice(0, 3).join(', ')}${existing.length > 3 ? ', …' : ''}); pass --force to replace its contents`);
    }
    mkdirSync(staging, { mode: 0o700 });
    const manifest = await unpack(archive, staging);
    // Checked, so now the directory's old contents go and the archive's take their place.
    for (const name of existing) rmSync(join(dir, name), { recursive: true, force: true });
    for (const name of readdirSync(staging)) if (name !== MANIFEST_FILE) renameSync(join(staging, name), join(dir, name));
    process.stdout.write(
      `Restored ${archive} (taken ${manifest.created_at}, schema version ${manifest.schema_version}) into ${dir}: ` +
        `${Object.keys(manifest.tables).length} tables, ${manifest.uploads.files} uploaded files\n`,
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

/** Unpacks the archive into `staging` and checks it against its manifest. */
async function unpack(archive: string, staging: string): Promise<BackupManifest> {
  const refused = await extractExpectedEntries(archive, staging, isArchiveEntry);
  if (refused.length > 0) throw new CliError(`--archive: unexpected entries in the archive: ${refused.slice(0, 5).join(', ')}`);
  const manifestPath = join(staging, MANIFEST_FILE);
  if (!existsSync(manifestPath)) throw new CliError(`--archive: no ${MANIFEST_FILE}; not a teamchat backup`);
  const manifest = parseManifest(readFileSync(manifestPath, 'utf8'));
  const databaseFile = join(staging, DATABASE_FILE);
  if (!existsSync(databaseFile)) throw new CliError(`--archive: no ${DATABASE_FILE} in the archive`);
  checkDatabase(databaseFile, manifest);
  return manifest;
}

/** The copy must be an intact database at the manifest's schema version, with the manifest's row counts. */
function checkDatabase(file: string, manifest: BackupManifest): void {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new CliError(`--archive: the database cannot be opened: ${(error as Error).message}`);
  }
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new CliError(`--archive: the database is damaged (${String(check)})`);
    const version = db.pragma('user_version', { simple: true });
    if (version !== manifest.schema_version) throw new CliError(`--archive: the database is at schema version ${version}, the manifest says ${manifest.schema_version}`);
    const counts = countRows(db);
    const differing = [...new Set([...Object.keys(counts), ...Object.keys(manifest.tables)])].filter((t) => counts[t] !== manifest.tables[t]);
    if (differing.length > 0) {
      const shown = differing.slice(0, 5).map((t) => `${t} has ${counts[t] ?? 'no table'}, manifest ${manifest.tables[t] ?? 'none'}`);
      throw new CliError(`--archive: the database does not match its manifest: ${shown.join('; ')}`);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`--archive: the database cannot be read: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}
