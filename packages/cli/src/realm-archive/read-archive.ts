/**
 * Unpacks an organisation archive into a private staging directory and reads it as a RealmDump.
 * Only the archive's own paths are taken (regular files and directories; no links, nothing
 * outside), and the manifest is checked before any table is read.
 */
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CliError } from '../data-dir.js';
import { extractExpectedEntries } from '../safe-extract.js';
import { decodeRow, MANIFEST_FILE, parseRealmManifest, type RealmArchiveManifest, tableFile } from './archive-format.js';
import { type DumpFile, type RealmDump, UPLOADS_DIR } from './archive-files.js';
import type { Row } from './database-handle.js';

const PAGE = 1000;

const isArchivePath = (path: string) => {
  const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
  // The archive's root itself, as `tar -C dir .` writes it.
  if (clean === '' || clean === '.') return true;
  if (clean.split('/').some((part) => part === '..' || part === '')) return false;
  return clean === MANIFEST_FILE || clean === 'tables' || /^tables\/[a-z_]+\.ndjson$/.test(clean) || clean === UPLOADS_DIR || clean.startsWith(`${UPLOADS_DIR}/`);
};

export function unpackArchive(archive: string, staging: string): Promise<string[]> {
  return extractExpectedEntries(archive, staging, isArchivePath);
}

export async function readRealmArchive(archive: string, staging: string): Promise<{ manifest: RealmArchiveManifest; dump: RealmDump }> {
  const refused = await unpackArchive(archive, staging);
  if (refused.length > 0) throw new CliError(`--archive: unexpected entries in the archive: ${refused.slice(0, 5).join(', ')}`);
  const manifestPath = join(staging, MANIFEST_FILE);
  if (!existsSync(manifestPath)) throw new CliError(`--archive: no ${MANIFEST_FILE}; not a teamchat organisation export`);
  const manifest = parseRealmManifest(readFileSync(manifestPath, 'utf8'));
  for (const [table, count] of Object.entries(manifest.tables)) {
    if (count > 0 && !existsSync(join(staging, tableFile(table)))) throw new CliError(`--archive: ${tableFile(table)} is missing`);
  }
  const dump: RealmDump = {
    counts: manifest.tables,
    rows: (table) => readTable(join(staging, tableFile(table)), tableFile(table)),
    files: listFiles(join(staging, UPLOADS_DIR)),
  };
  return { manifest, dump };
}

async function* readTable(file: string, name: string): AsyncIterable<Row[]> {
  if (!existsSync(file)) return;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let page: Row[] = [];
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line === '') continue;
    page.push(decodeRow(line, `${name} line ${number}`));
    if (page.length >= PAGE) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** The archive's files: `attachments/<path_id>` and `avatars/<user_id>[-medium].png`. */
function listFiles(root: string): DumpFile[] {
  if (!existsSync(root)) return [];
  const files: DumpFile[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath, entry.name);
    const relative = source.slice(root.length + 1).split(/[\\/]/).join('/');
    const avatar = /^avatars\/(\d+)(-medium)?\.png$/.exec(relative);
    if (avatar) files.push({ kind: 'avatar', userId: Number(avatar[1]), medium: avatar[2] !== undefined, source });
    else if (relative.startsWith('attachments/')) files.push({ kind: 'attachment', pathId: relative.slice('attachments/'.length), source });
    else throw new CliError(`--archive: unexpected file ${UPLOADS_DIR}/${relative}`);
  }
  return files;
}
