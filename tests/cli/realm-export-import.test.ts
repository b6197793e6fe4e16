/**
 * `teamchat export` and `teamchat import` (the command functions, on the installation of the
 * project's driver): a realm exported and imported elsewhere keeps every row, with its IDs and
 * the IDs inside its content renumbered; an import lands next to existing realms without
 * touching them; an export holds one realm only; a damaged or foreign archive is refused with
 * nothing written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRealm, getMessages, getSubscriptions, getUploadedFile, type User } from '@teamchat/core';
import { avatarBlobKey, uploadedAvatarFile } from '@teamchat/core/internal';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { must } from '../helpers/core.js';
import { closeContext, fillRealm, once, type Installation, newInstallation, openHandle, openInstallation, realmCounts, teamchat } from './realm-archive-fixture.js';

let output = '';
beforeEach(() => {
  output = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    output += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const scratch = () => mkdtempSync(join(tmpdir(), 'teamchat-archive-'));

async function countsOf(installation: Installation, realmId: number) {
  const db = await openHandle(installation);
  try {
    return await realmCounts(db, realmId);
  } finally {
    await db.close();
  }
}

async function realmIds(installation: Installation): Promise<number[]> {
  const db = await openHandle(installation);
  try {
    return ((await db.all('SELECT id FROM realm ORDER BY id')) as { id: number }[]).map((r) => Number(r.id));
  } finally {
    await db.close();
  }
}

/** Every file and directory under the installation's uploads. */
function uploadFiles(installation: Installation): string[] {
  const root = join(installation.dir, 'uploads');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** A source installation with one filled realm, exported to an archive (once for the file). */
const exportedRealm = once(async () => {
  const subdomain = 'acme';
  const source = await newInstallation();
  const ctx = openInstallation(source);
  const filled = await fillRealm(ctx, { subdomain, url: `http://${subdomain}.example.com`, name: 'Acme' });
  await closeContext(ctx);
  const archive = join(scratch(), 'acme.tar.gz');
  await teamchat(['export', '--realm', subdomain, '--out', archive, ...source.args]);
  return { source, filled, archive, counts: await countsOf(source, filled.realm.id), summary: output };
});

/** An installation that already has a realm of its own ('first'). */
const neighbour = once(async () => {
  const target = await newInstallation();
  const ctx = openInstallation(target);
  const existing = await fillRealm(ctx, { subdomain: 'first', url: 'http://first.example.com', name: 'First' });
  await closeContext(ctx);
  return { target, existing };
});

/** Two realms, 'a' and 'b', in one installation. */
const twoRealms = once(async () => {
  const source = await newInstallation();
  const ctx = openInstallation(source);
  const a = await fillRealm(ctx, { subdomain: 'a', url: 'http://a.example.com', name: 'Realm A' });
  const b = await fillRealm(ctx, { subdomain: 'b', url: 'http://b.example.com', name: 'Realm B' });
  await closeContext(ctx);
  return { source, a, b };
});

type ApiMessage = { id: number; content: string; flags: string[]; reactions: { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[]; display_recipient: unknown };

async function newestMessages(ctx: Parameters<typeof getMessages>[0], realmUser: { realm: NonNullable<Awaited<ReturnType<typeof findRealm>>>; user: User }, raw = false) {
  const page = must(await getMessages(ctx, realmUser, { anchor: 'newest', num_before: 50, num_after: 0, apply_markdown: !raw })) as { messages: ApiMessage[] };
  return page.messages;
}

describe('teamchat export then import into a fresh installation', () => {
  it('keeps every row of every table, with IDs and the IDs inside content renumbered consistently', async () => {
    const { filled, archive, counts, summary } = await exportedRealm();
    expect(summary).toMatch(/^Exported realm Acme \(http:\/\/acme\.example\.com\) to .*acme\.tar\.gz: \d+ rows in 34 tables, 4 messages, 3 files\n$/);
    expect(counts.message).toBe(4);
    expect(counts.reaction).toBe(2);
    expect(counts.subscription).toBeGreaterThanOrEqual(4);

    const target = await newInstallation();
    output = '';
    await teamchat(['import', '--archive', archive, ...target.args, '--json']);
    const report = JSON.parse(output) as { realmId: number; subdomain: string; url: string; tables: Record<string, number>; files: number };
    expect(report).toMatchObject({ subdomain: 'acme', url: 'http://acme.example.com', files: 3 });
    expect(report.tables).toEqual(counts);
    expect(await countsOf(target, report.realmId)).toEqual(counts);

    const ctx = openInstallation(target);
    try {
      const realm = (await findRealm(ctx, 'acme'))!;
      expect(realm.id).toBe(report.realmId);
      const byEmail = (email: string) => ctx.storage.read((tx) => tx.users.byDeliveryEmail(realm.id, email)) as Promise<User>;
      const [alice, bob, owner, carol] = await Promise.all(['alice@example.com', 'bob@example.com', 'owner@example.com', 'carol@example.com'].map(byEmail));
      expect(carol!.isActive).toBe(false);
      expect(alice!.passwordHash).toBe(filled.alice.passwordHash);

      const rendered = await newestMessages(ctx, { realm, user: bob! });
      const mention = rendered.find((m) => m.content.includes('user-mention'))!;
      expect(mention.content).toContain(`data-user-id="${bob!.id}"`);
      expect(mention.content).toContain(`/user_uploads/${realm.id}/`);
      expect(mention.flags).toEqual(expect.arrayContaining(['read', 'starred', 'mentioned']));
      const emojiId = (await ctx.storage.read((tx) => tx.realmEmoji.list(realm.id)))[0]!.id;
      expect(mention.reactions.map(({ emoji_name, emoji_code, reaction_type, user_id }) => ({ emoji_name, emoji_code, reaction_type, user_id }))).toEqual(
        expect.arrayContaining([
          { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji', user_id: bob!.id },
          { emoji_name: 'party_parrot', emoji_code: String(emojiId), reaction_type: 'realm_emoji', user_id: owner!.id },
        ]),
      );
      const raw = await newestMessages(ctx, { realm, user: bob! }, true);
      expect(raw.find((m) => m.id === mention.id)!.content).toMatch(new RegExp(`^Hi @\\*\\*Bob Builder\\|${bob!.id}\\*\\* and @\\*builders\\*, see \\[notes\\]\\(/user_uploads/${realm.id}/`));

      const aliceMessages = await newestMessages(ctx, { realm, user: alice! });
      const groupDm = aliceMessages.find((m) => m.content.includes('the three of us'))!;
      expect((groupDm.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b)).toEqual([alice!.id, bob!.id, owner!.id].sort((a, b) => a - b));

      const aliceSubs = (must(await getSubscriptions(ctx, { realm, user: alice! }, {})) as { subscriptions: { name: string; color: string }[] }).subscriptions;
      expect(aliceSubs.find((s) => s.name === 'general')!.color).toBe('#abcdef');
      const bobSubs = (must(await getSubscriptions(ctx, { realm, user: bob! }, {})) as { subscriptions: { name: string; is_muted: boolean }[] }).subscriptions;
      expect(bobSubs.find((s) => s.name === 'general')!.is_muted).toBe(true);

      const [realmPart, ...rest] = /\/user_uploads\/([^)"]+)/.exec(raw.find((m) => m.id === mention.id)!.content)![1]!.split('/');
      const file = must(await getUploadedFile.fromTransport(ctx, { realm, user: alice! }, { realm_id: realmPart!, filename: rest.join('/') })) as { bytes?: Uint8Array };
      expect(file).toBeTruthy();
      expect(alice!.avatarSource).toBe('U');
      expect(await ctx.uploads.get(avatarBlobKey(realm.id, uploadedAvatarFile(realm, alice!)))).not.toBeNull();
      expect(await ctx.uploads.get(avatarBlobKey(realm.id, uploadedAvatarFile(realm, alice!, true)))).not.toBeNull();
    } finally {
      await closeContext(ctx);
    }
  });
});

describe('teamchat import next to an existing realm', () => {
  it('adds the realm with new IDs above the installation’s, leaves the existing realm as it was, and refuses a taken subdomain', async () => {
    const { archive, counts, filled: source } = await exportedRealm();
    const { target, existing } = await neighbour();
    const before = await countsOf(target, existing.realm.id);

    output = '';
    await teamchat(['import', '--archive', archive, ...target.args, '--subdomain', 'second', '--url', 'http://second.example.com']);
    expect(output).toMatch(/^Imported realm \d+ at http:\/\/second\.example\.com \(subdomain second\): 4 users, 1 channels, 4 messages, 3 files\n$/);
    expect(await countsOf(target, existing.realm.id)).toEqual(before);

    const check = openInstallation(target);
    try {
      const realm = (await findRealm(check, 'second'))!;
      expect(realm.url).toBe('http://second.example.com');
      expect(realm.uuid).not.toBe(source.realm.uuid);
      expect(await countsOf(target, realm.id)).toEqual(counts);
      const bob = (await check.storage.read((tx) => tx.users.byDeliveryEmail(realm.id, 'bob@example.com')))!;
      const users = await check.storage.read((tx) => tx.users.list(realm.id));
      for (const user of users) expect(user.id).toBeGreaterThan(existing.carol.id);
      const messages = await newestMessages(check, { realm, user: bob }, true);
      for (const message of messages) expect(message.id).toBeGreaterThan(existing.groupDm);
      expect(messages.find((m) => m.content.startsWith('Hi @**'))!.content).toContain(`@**Bob Builder|${bob.id}**`);
      // The existing realm's users and messages still read as before.
      const firstBob = (await check.storage.read((tx) => tx.users.byDeliveryEmail(existing.realm.id, 'bob@example.com')))!;
      expect(firstBob.id).toBe(existing.bob.id);
    } finally {
      await closeContext(check);
    }

    const realmsBefore = await realmIds(target);
    await expect(teamchat(['import', '--archive', archive, ...target.args, '--subdomain', 'second', '--url', 'http://third.example.com'])).rejects.toThrow(
      "this installation already has a realm with the subdomain 'second'",
    );
    await expect(teamchat(['import', '--archive', archive, ...target.args, '--subdomain', 'third', '--url', 'http://second.example.com'])).rejects.toThrow(
      'this installation already has a realm with the URL http://second.example.com',
    );
    expect(await realmIds(target)).toEqual(realmsBefore);
  });
});

describe('teamchat export of one realm among several', () => {
  it('holds that realm’s rows and files only', async () => {
    const { source, a, b } = await twoRealms();
    const archive = join(scratch(), 'a.tar.gz');
    output = '';
    await teamchat(['export', '--realm', 'http://a.example.com/', '--out', archive, ...source.args, '--json']);
    const manifest = JSON.parse(output) as { source: { realm_id: number }; tables: Record<string, number> };
    expect(manifest.source.realm_id).toBe(a.realm.id);
    expect(manifest.tables).toEqual(await countsOf(source, a.realm.id));

    const unpacked = scratch();
    execFileSync('tar', ['xzf', archive, '-C', unpacked]);
    const bUsers = new Set([b.owner.id, b.alice.id, b.bob.id, b.carol.id]);
    for (const file of readdirSync(join(unpacked, 'tables'))) {
      const rows = readFileSync(join(unpacked, 'tables', file), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const row of rows) {
        if ('realm_id' in row) expect(row.realm_id, file).toBe(a.realm.id);
        for (const column of ['user_id', 'sender_id', 'owner_id']) if (column in row) expect(bUsers.has(row[column] as number), `${file} ${column}`).toBe(false);
      }
    }
    const files = readdirSync(join(unpacked, 'uploads'), { recursive: true }).map(String);
    expect(files.filter((f) => f.startsWith(`attachments${'/'}${b.realm.id}/`))).toEqual([]);
    expect(files).toContain(`attachments/${a.uploadPathId}`);
    expect(files).not.toContain(`attachments/${b.uploadPathId}`);
  });

  it('refuses an unknown realm and a missing --realm', async () => {
    const { source } = await twoRealms();
    const out = join(scratch(), 'x.tar.gz');
    await expect(teamchat(['export', '--realm', 'nope', '--out', out, ...source.args])).rejects.toThrow("--realm: no realm 'nope' here (realms: a, b)");
    await expect(teamchat(['export', '--out', out, ...source.args])).rejects.toThrow('--realm is required');
    expect(existsSync(out)).toBe(false);
  });
});

describe('teamchat import of a bad archive', () => {
  /** The archive unpacked, changed by `change`, and packed again. */
  function altered(archive: string, change: (dir: string) => void): string {
    const dir = scratch();
    execFileSync('tar', ['xzf', archive, '-C', dir]);
    change(dir);
    const out = join(scratch(), 'altered.tar.gz');
    execFileSync('tar', ['czf', out, '-C', dir, '.']);
    return out;
  }

  it('refuses it with a clear message and writes nothing', async () => {
    const { archive } = await exportedRealm();
    const { target, existing } = await neighbour();
    const realmsBefore = await realmIds(target);
    const before = await countsOf(target, existing.realm.id);
    const filesBefore = uploadFiles(target);
    const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    const garbage = join(scratch(), 'garbage.tar.gz');
    writeFileSync(garbage, 'this is not an archive');

    const cases: [string, string][] = [
      [garbage, '--archive: cannot unpack'],
      [altered(archive, (dir) => writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifestOf(dir), format_version: 99 }))), 'export format version 99, this teamchat imports version 1'],
      [altered(archive, (dir) => writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifestOf(dir), format: 'teamchat-backup' }))), 'not a teamchat organisation export'],
      [altered(archive, (dir) => writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifestOf(dir), schema_version: 10_000 }))), 'newer than this teamchat'],
      [altered(archive, (dir) => writeFileSync(join(dir, 'manifest.json'), '{ not json')), 'manifest.json is not valid JSON'],
      [
        altered(archive, (dir) => {
          const file = join(dir, 'tables', 'message.ndjson');
          writeFileSync(file, `${readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(1).join('\n')}\n`);
        }),
        'message has 3 rows, the manifest says 4; the archive is damaged',
      ],
      [altered(archive, (dir) => writeFileSync(join(dir, 'tables', 'reaction.ndjson'), '{"id": 1,\n')), 'reaction.ndjson line 1 is not valid JSON'],
      // Passes every check before the transaction, fails inside it: rolled back with the files it stored.
      [
        altered(archive, (dir) => {
          const file = join(dir, 'tables', 'reaction.ndjson');
          const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
          writeFileSync(file, `${lines.map((row) => JSON.stringify({ ...row, user_id: 987_654 })).join('\n')}\n`);
        }),
        'names user 987654, which the archive does not hold',
      ],
      // Fails while storing the files, after the attachments: they and their directories go too.
      [altered(archive, (dir) => writeFileSync(join(dir, 'uploads', 'avatars', '987654.png'), 'not a user of the archive')), 'an avatar names user 987654'],
    ];
    for (const [file, message] of cases) {
      await expect(teamchat(['import', '--archive', file, ...target.args, '--subdomain', 'bad', '--url', 'http://bad.example.com']), message).rejects.toThrow(message);
      expect(await realmIds(target)).toEqual(realmsBefore);
      expect(await countsOf(target, existing.realm.id)).toEqual(before);
      expect(uploadFiles(target)).toEqual(filesBefore);
    }
  });

  it('refuses a data directory a running server holds', async () => {
    const { archive } = await exportedRealm();
    const dir = scratch();
    // The lock `teamchat serve` writes, held by a live process (this one).
    writeFileSync(join(dir, 'teamchat.pid'), `${JSON.stringify({ pid: process.pid, command: 'serve', started_at: new Date().toISOString() })}\n`);
    await expect(teamchat(['import', '--archive', archive, '--data', dir])).rejects.toThrow(`is in use by \`teamchat serve\` (pid ${process.pid}`);
    expect(readdirSync(dir)).toEqual(['teamchat.pid']);
  });

  it('refuses bad options before reading anything', async () => {
    const { target } = await neighbour();
    await expect(teamchat(['import', ...target.args])).rejects.toThrow('give one of --archive and --from-zulip');
    await expect(teamchat(['import', '--archive', '/nonexistent.tar.gz', ...target.args])).rejects.toThrow('--archive: /nonexistent.tar.gz does not exist');
    const { archive } = await exportedRealm();
    await expect(teamchat(['import', '--archive', archive, ...target.args, '--subdomain', 'Not Valid'])).rejects.toThrow("--subdomain: 'Not Valid' is not a valid subdomain");
    await expect(teamchat(['import', '--archive', archive, ...target.args, '--url', 'ftp://x'])).rejects.toThrow("--url: 'ftp://x' is not an http(s) URL of a host");
  });
});
