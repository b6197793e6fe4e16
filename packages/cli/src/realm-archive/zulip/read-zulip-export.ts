/**
 * Reads a Zulip organisation export (the directory `manage.py export` writes, or its .tar.gz)
 * as a RealmDump: realm.json, messages-NNNNNN.json, attachment.json, and the files listed in
 * uploads/, avatars/ and emoji/ records.json. Files are looked up only inside the export.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { detectImageType } from '@teamchat/core/internal';
import { extract } from 'tar';
import { CliError } from '../../data-dir.js';
import type { DumpFile, RealmDump } from '../archive-files.js';
import type { Row } from '../database-handle.js';
import { convertExtras } from './convert-extras.js';
import { convertMessages, convertReactions } from './convert-messages.js';
import { convertChannels, convertGroups, convertRealm, convertUsers, flag, GroupIds, seconds } from './convert-people.js';
import type { ZulipAttachmentFile, ZulipFileRecord, ZulipMessageFile, ZulipRealmFile } from './zulip-export-types.js';

const PAGE = 1000;

export async function readZulipExport(source: string, staging: string): Promise<RealmDump> {
  const root = statSync(source).isDirectory() ? source : await unpackTarball(source, staging);
  const realmData = readJson<ZulipRealmFile>(root, 'realm.json');
  if (!Array.isArray(realmData.zerver_realm) || !Array.isArray(realmData.zerver_userprofile)) {
    throw new CliError('--from-zulip: realm.json has no zerver_realm or zerver_userprofile; not a Zulip export');
  }
  const messageFiles = readdirSync(root)
    .filter((name) => /^messages-\d+\.json$/.test(name))
    .sort()
    .map((name) => readJson<ZulipMessageFile>(root, name));
  const attachments = existsSync(join(root, 'attachment.json')) ? readJson<ZulipAttachmentFile>(root, 'attachment.json').zerver_attachment ?? [] : [];

  const groups = new GroupIds(realmData);
  const realm = convertRealm(realmData, groups);
  const realmId = realm.id as number;
  const avatars = avatarFiles(root);
  const user = convertUsers(realmData, realmId, (id) => avatars.has(id));
  const userIds = new Set(user.map((u) => u.id as number));
  const names = new Map(user.map((u) => [u.id as number, String(u.full_name)]));
  const channels = convertChannels(realmData, realmId, groups);
  const streamIds = new Set(channels.stream.map((s) => s.id as number));
  const messages = convertMessages(realmData, messageFiles, realmId, userIds, names);
  const messageIds = new Set(messages.message.map((m) => m.id as number));
  const emoji = convertEmoji(root, realmData, realmId, userIds);
  const uploads = convertAttachments(root, attachments, realmId, userIds, messageIds);
  const tables: Record<string, Row[]> = {
    realm: [realm],
    user,
    ...channels,
    ...convertGroups(realmData, realmId, groups),
    ...convertExtras(realmData, realmId, userIds, streamIds),
    ...emoji,
    ...messages,
    reaction: convertReactions(realmData, messageFiles, realmId, messageIds, userIds),
    attachment: uploads.attachment,
    message_attachment: uploads.message_attachment,
  };
  const files: DumpFile[] = [...uploads.files];
  for (const row of user) {
    const found = avatars.get(row.id as number);
    if (row.avatar_source !== 'U' || !found) continue;
    files.push({ kind: 'avatar', userId: row.id as number, medium: false, source: found.small });
    if (found.medium) files.push({ kind: 'avatar', userId: row.id as number, medium: true, source: found.medium });
  }
  return {
    counts: Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.length])),
    async *rows(table) {
      const rows = tables[table] ?? [];
      for (let start = 0; start < rows.length; start += PAGE) yield rows.slice(start, start + PAGE);
    },
    files,
  };
}

/** The tarball's one top directory (or its root) holding realm.json. */
async function unpackTarball(file: string, staging: string): Promise<string> {
  try {
    await extract({
      file,
      cwd: staging,
      strict: true,
      // Regular files and directories only, and nothing outside the staging directory.
      filter: (path, entry) => {
        const type = 'type' in entry ? entry.type : undefined;
        return (type === 'File' || type === 'Directory') && !path.split('/').includes('..');
      },
    });
  } catch (error) {
    throw new CliError(`--from-zulip: cannot unpack ${file}: ${(error as Error).message}`);
  }
  if (existsSync(join(staging, 'realm.json'))) return staging;
  const dirs = readdirSync(staging, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(staging, e.name, 'realm.json')));
  if (dirs.length !== 1) throw new CliError(`--from-zulip: ${file} holds no realm.json; not a Zulip organisation export`);
  return join(staging, dirs[0]!.name);
}

function readJson<T>(root: string, name: string): T {
  const path = join(root, name);
  if (!existsSync(path)) throw new CliError(`--from-zulip: ${name} is missing; not a Zulip organisation export`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    throw new CliError(`--from-zulip: ${name} is not valid JSON`);
  }
}

/** A path of a records.json, resolved inside its directory (a record cannot point elsewhere). */
function inside(dir: string, path: string): string | undefined {
  const full = resolve(dir, path);
  if (!full.startsWith(resolve(dir) + sep) || relative(dir, full).startsWith('..')) return undefined;
  return existsSync(full) && statSync(full).isFile() ? full : undefined;
}

function records(root: string, dir: string): ZulipFileRecord[] {
  const path = join(root, dir, 'records.json');
  if (!existsSync(path)) return [];
  const parsed = readJson<ZulipFileRecord[]>(root, `${dir}/records.json`);
  return Array.isArray(parsed) ? parsed : [];
}

/** Each user's avatar images: the reference stores `<hash>.png` and `<hash>-medium.png` (and the `.original`). */
function avatarFiles(root: string): Map<number, { small: string; medium?: string }> {
  const found = new Map<number, { small: string; medium?: string }>();
  const byUser = new Map<number, string[]>();
  for (const record of records(root, 'avatars')) {
    const userId = Number(record.user_profile_id);
    const path = inside(join(root, 'avatars'), record.path);
    if (!Number.isSafeInteger(userId) || !path) continue;
    byUser.set(userId, [...(byUser.get(userId) ?? []), path]);
  }
  for (const [userId, paths] of byUser) {
    const small = paths.find((p) => p.endsWith('.png') && !p.endsWith('-medium.png'));
    if (small) found.set(userId, { small, medium: paths.find((p) => p.endsWith('-medium.png')) });
  }
  return found;
}

/** Custom emoji with their images (teamchat keeps the bytes in the database). */
function convertEmoji(root: string, data: ZulipRealmFile, realmId: number, userIds: Set<number>): { realm_emoji: Row[]; realm_emoji_image: Row[] } {
  const pathByFile = new Map<string, string>();
  for (const record of records(root, 'emoji')) {
    const path = inside(join(root, 'emoji'), record.path);
    if (path && record.file_name) pathByFile.set(String(record.file_name), path);
  }
  const realm_emoji: Row[] = [];
  const realm_emoji_image: Row[] = [];
  for (const emoji of data.zerver_realmemoji ?? []) {
    const fileName = String(emoji.file_name ?? '');
    const path = pathByFile.get(fileName) ?? inside(join(root, 'emoji'), `${realmId}/emoji/images/${fileName}`);
    if (!path) continue;
    const bytes = readFileSync(path);
    realm_emoji.push({
      id: Number(emoji.id),
      realm_id: realmId,
      name: String(emoji.name),
      author_id: userIds.has(Number(emoji.author)) ? Number(emoji.author) : null,
      deactivated: flag(emoji.deactivated),
      content_type: detectImageType(bytes) ?? 'image/png',
    });
    realm_emoji_image.push({ emoji_id: Number(emoji.id), bytes });
  }
  return { realm_emoji, realm_emoji_image };
}

/** Attachments whose file the export holds, and the imported messages that reference them. */
function convertAttachments(
  root: string,
  attachments: Record<string, unknown>[],
  realmId: number,
  userIds: Set<number>,
  messageIds: Set<number>,
): { attachment: Row[]; message_attachment: Row[]; files: DumpFile[] } {
  const attachment: Row[] = [];
  const message_attachment: Row[] = [];
  const files: DumpFile[] = [];
  for (const a of attachments) {
    const pathId = String(a.path_id ?? '');
    const source = inside(join(root, 'uploads'), pathId);
    if (!source || !userIds.has(Number(a.owner)) || !pathId.startsWith(`${realmId}/`)) continue;
    attachment.push({
      id: Number(a.id),
      realm_id: realmId,
      owner_id: Number(a.owner),
      path_id: pathId,
      file_name: String(a.file_name ?? pathId.split('/').pop()),
      size: Number(a.size ?? statSync(source).size),
      content_type: typeof a.content_type === 'string' && a.content_type !== '' ? a.content_type : 'application/octet-stream',
      create_time: seconds(a.create_time),
    });
    for (const messageId of (a.messages as number[] | undefined) ?? []) {
      if (messageIds.has(Number(messageId))) message_attachment.push({ message_id: Number(messageId), attachment_id: Number(a.id) });
    }
    files.push({ kind: 'attachment', pathId, source });
  }
  return { attachment, message_attachment, files };
}
