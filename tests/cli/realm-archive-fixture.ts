/**
 * Installations for the export and import tests: a data directory with its SQLite file, or (in
 * the postgres project) a PostgreSQL database of its own with the directory for uploads; a
 * realm filled through the core's operations with something of every kind an export carries;
 * and the row counts of one realm per archived table, read straight from the database.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  closeContext,
  createRealm,
  createUserAsOperator,
  type Ctx,
  doAddAlertWords,
  doAddReaction,
  doAddRealmEmoji,
  doCreateChannel,
  doCreateSavedSnippet,
  doCreateUserGroup,
  doDeactivateUser,
  doSendMessage,
  doUpdateMessageFlags,
  doUpdateSubscriptionProperties,
  doUpdateUserTopic,
  doUploadAvatar,
  doUploadFile,
  fileSystemBlobStore,
  type Realm,
  type User,
} from '@teamchat/core';
import { createPostgresStorage } from '@teamchat/postgres';
import { type DatabaseHandle, openPostgres, openSqlite, quote } from '../../packages/cli/src/realm-archive/database-handle.js';
import { REALM_TABLES } from '../../packages/cli/src/realm-archive/realm-tables.js';
import { COMMANDS } from '../../packages/cli/src/commands.js';
import { buildProgram } from '../../packages/cli/src/program.js';
import { must, testContext } from '../helpers/core.js';
import { postgresTestDatabase, TEST_DRIVER } from '../helpers/storage.js';
import { imageFile, png } from '../core/image-fixtures.js';

export interface Installation {
  dir: string;
  /** The PostgreSQL database, in the postgres project. */
  url?: string;
  /** `--data DIR [--database URL]` for the commands. */
  args: string[];
}

/** Made once, on first use: the tests share installations (each PostgreSQL database costs seconds to make and drop). */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

export async function newInstallation(): Promise<Installation> {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-realm-archive-'));
  const url = TEST_DRIVER === 'postgres' ? await postgresTestDatabase() : undefined;
  return { dir, url, args: ['--data', dir, ...(url ? ['--database', url] : [])] };
}

/** A context on the installation (close it before running a command on the same SQLite file). */
export function openInstallation(installation: Installation): Ctx {
  const uploads = fileSystemBlobStore(join(installation.dir, 'uploads'));
  return installation.url
    ? testContext({ storage: createPostgresStorage({ url: installation.url, readConnections: 1 }), uploads })
    : testContext({ databaseFile: join(installation.dir, 'teamchat.db'), uploads });
}

export function openHandle(installation: Installation): Promise<DatabaseHandle> {
  return installation.url ? openPostgres(installation.url, { readonly: false }) : openSqlite(join(installation.dir, 'teamchat.db'), { readonly: false });
}

export interface FilledRealm {
  realm: Realm;
  owner: User;
  alice: User;
  bob: User;
  /** Deactivated. */
  carol: User;
  general: number;
  /** The message mentioning Bob and linking Alice's upload. */
  mention: number;
  groupDm: number;
  uploadPathId: string;
  emojiId: number;
}

const PNG_EMOJI = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);

/** A realm with users, a channel, a group, custom emoji, an upload, an avatar, channel and direct messages, reactions, flags and settings. */
export async function fillRealm(ctx: Ctx, options: { subdomain: string; url: string; name: string }): Promise<FilledRealm> {
  const { realm, owner } = must(
    await createRealm(ctx, { name: options.name, url: options.url, subdomain: options.subdomain, owner: { email: 'owner@example.com', fullName: 'Olivia Owner', password: 'owner-password' } }),
  );
  const as = (user: User) => ({ realm, user });
  const add = async (email: string, fullName: string) => must(await createUserAsOperator(ctx, realm, { email, fullName, password: 'user-password' }));
  const alice = await add('alice@example.com', 'Alice Liddell');
  const bob = await add('bob@example.com', 'Bob Builder');
  const carol = await add('carol@example.com', 'Carol Danvers');
  const { id: general } = must(await doCreateChannel(ctx, as(owner), { name: 'general', description: 'Talk about **anything**', subscribers: [owner.id, alice.id, bob.id, carol.id] }));
  must(await doUpdateSubscriptionProperties(ctx, as(alice), { subscription_data: [{ stream_id: general, property: 'color', value: '#abcdef' }] }));
  must(await doUpdateSubscriptionProperties(ctx, as(bob), { subscription_data: [{ stream_id: general, property: 'is_muted', value: true }] }));
  must(await doCreateUserGroup(ctx, as(owner), { name: 'builders', description: 'People who build', members: [alice.id, bob.id] }));
  must(await doAddRealmEmoji.fromTransport(ctx, as(owner), { emoji_name: 'party_parrot', file: { filename: 'parrot.png', contentType: 'image/png', bytes: PNG_EMOJI } }));
  const emojiId = (await ctx.storage.read((tx) => tx.realmEmoji.list(realm.id))).find((e) => e.name === 'party_parrot')!.id;
  const uploaded = must(await doUploadFile(ctx, as(alice), { file: { filename: 'notes.txt', contentType: 'text/plain', bytes: new TextEncoder().encode('the notes') } }));
  const uploadPathId = uploaded.url.slice('/user_uploads/'.length);
  must(await doUploadAvatar(ctx, as(alice), { file: imageFile(png(20, 20)) }));

  const send = async (user: User, input: Record<string, unknown>) => must(await doSendMessage(ctx, as(user), input as never)).id;
  const first = await send(owner, { type: 'stream', to: 'general', topic: 'welcome', content: 'Welcome everyone :party_parrot:' });
  const mention = await send(alice, {
    type: 'stream',
    to: 'general',
    topic: 'welcome',
    content: `Hi @**Bob Builder|${bob.id}** and @*builders*, see [notes](/user_uploads/${uploadPathId}) and #**general>welcome@${first}**`,
  });
  await send(bob, { type: 'direct', to: JSON.stringify([alice.id]), content: 'a private word' });
  const groupDm = await send(alice, { type: 'direct', to: JSON.stringify([bob.id, owner.id]), content: 'the three of us' });
  must(await doAddReaction(ctx, as(bob), { message_id: mention, emoji_name: 'smile' }));
  must(await doAddReaction(ctx, as(owner), { message_id: mention, emoji_name: 'party_parrot' }));
  must(await doUpdateMessageFlags(ctx, as(bob), { messages: [mention], op: 'add', flag: 'starred' }));
  must(await doUpdateMessageFlags(ctx, as(bob), { messages: [first, mention], op: 'add', flag: 'read' }));
  must(await doUpdateUserTopic(ctx, as(alice), { stream_id: general, topic: 'welcome', visibility_policy: 3 }));
  must(await doAddAlertWords(ctx, as(bob), { alert_words: ['deadline'] }));
  must(await doCreateSavedSnippet(ctx, as(alice), { title: 'Greeting', content: 'Hello there' }));
  must(await doDeactivateUser(ctx, as(owner), { user_id: carol.id }));
  return { realm, owner, alice, bob, carol, general, mention, groupDm, uploadPathId, emojiId };
}

/** Rows of each archived table that belong to the realm. */
export async function realmCounts(db: DatabaseHandle, realmId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const spec of REALM_TABLES) {
    const [{ n }] = (await db.all(`SELECT count(*) AS n FROM ${quote(spec.table)} WHERE ${spec.where}`, [realmId])) as [{ n: number }];
    counts[spec.table] = Number(n);
  }
  return counts;
}

/** Runs `teamchat ARGV…` in this process, as the bin parses it (a refusal rejects with its CliError). */
export async function teamchat(argv: string[]): Promise<void> {
  await buildProgram(COMMANDS).parseAsync(argv, { from: 'user' });
}

export { closeContext };
