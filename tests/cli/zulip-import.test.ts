/**
 * `teamchat import --from-zulip`: the hand-written export in tests/fixtures/zulip-export (see its
 * README) imported and checked row by row, from its directory and from a tarball; a directory
 * that is not an export, or no --url, refused with nothing written.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRealm, getMessages, type User } from '@teamchat/core';
import { avatarBlobKey, uploadedAvatarFile } from '@teamchat/core/internal';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Row } from '../../packages/cli/src/realm-archive/database-handle.js';
import { must } from '../helpers/core.js';
import { closeContext, newInstallation, once, openHandle, openInstallation, realmCounts, teamchat } from './realm-archive-fixture.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/zulip-export');

let output = '';
beforeEach(() => {
  output = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    output += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

/** The fixture imported into a fresh installation (once for the file). */
const imported = once(async () => {
  const target = await newInstallation();
  await teamchat(['import', '--from-zulip', FIXTURE, ...target.args, '--url', 'https://zulipco.example.com', '--json']);
  const report = JSON.parse(output) as { realmId: number; tables: Record<string, number>; files: number };
  return { target, report };
});

async function withHandle<T>(work: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  const { target } = await imported();
  const db = await openHandle(target);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

describe('teamchat import --from-zulip', () => {
  it('imports every user, channel, subscription, message, flag, reaction, upload and setting of the export', async () => {
    const { report } = await imported();
    const realmId = report.realmId;
    expect(report.files).toBe(3);
    await withHandle(async (db) => {
      const all = (sql: string, ...params: unknown[]) => db.all(sql, params) as Promise<Row[]>;
      const [realm] = await all('SELECT subdomain, name, description, url, settings FROM realm WHERE id = ?', realmId);
      expect(realm).toMatchObject({ subdomain: 'zulipco', name: 'Zulip Co', description: 'The **best** organization', url: 'https://zulipco.example.com' });

      const users = await all(
        'SELECT id, delivery_email, full_name, role, is_active, is_bot, bot_owner_id, password_hash, avatar_source, avatar_version, is_imported_stub, is_system_bot, timezone FROM "user" WHERE realm_id = ? ORDER BY id',
        realmId,
      );
      const user = (email: string) => users.find((u) => u.delivery_email === email)!;
      const id = (email: string) => Number(user(email).id);
      expect(users.map((u) => [u.delivery_email, Number(u.role), Number(u.is_active), Number(u.is_bot), Number(u.is_imported_stub), Number(u.is_system_bot)])).toEqual([
        ['notification-bot@zulip.com', 400, 1, 1, 0, 1],
        ['welcome-bot@zulip.com', 400, 1, 1, 0, 0],
        ['iago@zulip.example', 100, 1, 0, 0, 0],
        ['hamlet@zulip.example', 400, 1, 0, 0, 0],
        ['othello@zulip.example', 200, 1, 0, 0, 0],
        ['prospero@zulip.example', 600, 1, 0, 0, 0],
        ['desdemona@zulip.example', 400, 0, 0, 0, 0],
        ['castle-bot@zulip.example', 400, 1, 1, 0, 0],
        ['former@zulip.example', 400, 0, 0, 1, 0],
      ]);
      expect(users.every((u) => u.password_hash === null)).toBe(true);
      expect(Number(user('castle-bot@zulip.example').bot_owner_id)).toBe(id('hamlet@zulip.example'));
      expect(user('hamlet@zulip.example')).toMatchObject({ full_name: 'King Hamlet', avatar_source: 'U', timezone: 'Europe/Copenhagen' });
      expect(Number(user('hamlet@zulip.example').avatar_version)).toBe(2);

      const streams = await all('SELECT id, name, invite_only, history_public_to_subscribers, creator_id, first_message_id, group_settings, rendered_description FROM stream WHERE realm_id = ? ORDER BY id', realmId);
      const [denmark, verona] = streams;
      expect(streams.map((s) => [s.name, Number(s.invite_only), Number(s.history_public_to_subscribers)])).toEqual([
        ['Denmark', 0, 1],
        ['Verona', 1, 0],
      ]);
      expect(Number(denmark!.creator_id)).toBe(id('iago@zulip.example'));
      expect(JSON.parse(denmark!.group_settings as string)).toEqual({ can_remove_subscribers_group: 2, can_administer_channel_group: 8 });
      expect(denmark!.rendered_description).toBe('<p>A <strong>royal</strong> channel</p>');

      const settings = JSON.parse(realm!.settings as string) as Record<string, unknown>;
      expect(settings).toMatchObject({
        new_stream_announcements_stream_id: denmark!.id,
        signup_announcements_stream_id: verona!.id,
        message_content_edit_limit_seconds: null,
        can_create_public_channel_group: 5,
        can_delete_any_message_group: 2,
        direct_message_permission_group: 6,
      });

      const subscriptions = await all('SELECT user_id, stream_id, active, color, is_muted, pin_to_top, desktop_notifications FROM subscription WHERE realm_id = ? ORDER BY stream_id, user_id', realmId);
      const subscription = (email: string, stream: Row) => subscriptions.find((s) => Number(s.user_id) === id(email) && s.stream_id === stream.id)!;
      expect(subscriptions).toHaveLength(8);
      expect(subscription('hamlet@zulip.example', denmark!)).toMatchObject({ color: '#e79ab5' });
      expect(Number(subscription('hamlet@zulip.example', denmark!).is_muted)).toBe(1);
      expect(Number(subscription('hamlet@zulip.example', verona!).pin_to_top)).toBe(1);
      expect(Number(subscription('othello@zulip.example', verona!).active)).toBe(0);
      expect(Number(subscription('prospero@zulip.example', denmark!).desktop_notifications)).toBe(1);
      expect(subscription('iago@zulip.example', denmark!).desktop_notifications).toBeNull();

      const messages = await all('SELECT id, sender_id, type, stream_id, topic, dm_key, content, rendered_content, date_sent, sending_client, last_edit_time, edit_history FROM message WHERE realm_id = ? ORDER BY id', realmId);
      expect(messages).toHaveLength(7);
      const [welcome, mention, , direct, group, notice, edited] = messages;
      expect(Number(denmark!.first_message_id)).toBe(welcome!.id);
      expect(Number(verona!.first_message_id)).toBe(messages[2]!.id);
      expect(welcome).toMatchObject({ type: 'stream', topic: 'castle', content: 'Welcome to **Denmark**!', sending_client: 'website' });
      expect(Number(welcome!.date_sent)).toBe(1700000100);
      const pathId = (await all('SELECT path_id FROM attachment WHERE realm_id = ?', realmId))[0]!.path_id as string;
      expect(pathId).toBe(`${realmId}/ab/Xyz123AbC456dEf789gHi012/plan.txt`);
      expect(mention!.content).toBe(`@**Iago|${id('iago@zulip.example')}** see [plan.txt](/user_uploads/${pathId}) and #**Verona>balcony**`);
      expect(mention!.rendered_content).toContain(`data-user-id="${id('iago@zulip.example')}"`);
      expect(mention!.rendered_content).toContain(`data-stream-id="${verona!.id}" href="/#narrow/channel/${verona!.id}-Verona/topic/balcony"`);
      expect(mention!.sending_client).toBe('ZulipMobile');
      const sortedKey = (...emails: string[]) => emails.map(id).sort((a, b) => a - b).join(',');
      expect(direct).toMatchObject({ type: 'private', stream_id: null, topic: '', dm_key: sortedKey('iago@zulip.example', 'hamlet@zulip.example') });
      expect(group!.dm_key).toBe(sortedKey('iago@zulip.example', 'hamlet@zulip.example', 'othello@zulip.example'));
      expect(Number(notice!.sender_id)).toBe(id('notification-bot@zulip.com'));
      // The export held no rendering of it: rendered on import, with the silent mention renumbered.
      expect(notice!.rendered_content).toContain(`data-user-id="${id('hamlet@zulip.example')}"`);
      expect(Number(edited!.last_edit_time)).toBe(1700000760);
      expect(JSON.parse(edited!.edit_history as string)).toEqual([
        { user_id: id('othello@zulip.example'), timestamp: 1700000760, prev_content: 'I will be ther', prev_rendered_content: '<p>I will be ther</p>', prev_rendered_content_version: 1 },
      ]);

      const flags = await all('SELECT user_id, message_id, flags FROM user_message WHERE message_id IN (SELECT id FROM message WHERE realm_id = ?)', realmId);
      const flagsOf = (email: string, message: Row) => Number(flags.find((f) => Number(f.user_id) === id(email) && f.message_id === message.id)?.flags);
      expect(flags).toHaveLength(26);
      expect(flagsOf('hamlet@zulip.example', welcome!)).toBe(1 | 2);
      expect(flagsOf('iago@zulip.example', mention!)).toBe(1 | 8);
      expect(flagsOf('prospero@zulip.example', notice!)).toBe(1 | 128);
      // Zulip's is_private bit is its own bookkeeping: not a flag here.
      expect(flagsOf('hamlet@zulip.example', group!)).toBe(2);
      expect(flagsOf('iago@zulip.example', direct!)).toBe(0);

      const [emoji] = await all('SELECT id, name, author_id, content_type FROM realm_emoji WHERE realm_id = ?', realmId);
      expect(emoji).toMatchObject({ name: 'green_tick', content_type: 'image/png' });
      expect(Number(emoji!.author_id)).toBe(id('iago@zulip.example'));
      const [image] = await all('SELECT bytes FROM realm_emoji_image WHERE emoji_id = ?', emoji!.id);
      expect(Buffer.from(image!.bytes as Uint8Array).equals(readFileSync(join(FIXTURE, 'emoji/2/emoji/images/a1b2c3d4.png')))).toBe(true);
      const reactions = await all('SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reaction WHERE realm_id = ? ORDER BY id', realmId);
      expect(reactions.map((r) => [r.message_id, Number(r.user_id), r.emoji_name, r.emoji_code, r.reaction_type])).toEqual([
        [welcome!.id, id('hamlet@zulip.example'), 'heart', '2764', 'unicode_emoji'],
        [mention!.id, id('othello@zulip.example'), 'green_tick', String(emoji!.id), 'realm_emoji'],
        [group!.id, id('iago@zulip.example'), 'zulip', 'zulip', 'service_extra_emoji'],
        [welcome!.id, id('prospero@zulip.example'), 'heart', '2764', 'unicode_emoji'],
      ]);

      expect(await all('SELECT message_id FROM message_attachment WHERE attachment_id IN (SELECT id FROM attachment WHERE realm_id = ?)', realmId)).toEqual([{ message_id: mention!.id }]);
      const [team] = await all('SELECT id, name, settings FROM user_group WHERE realm_id = ?', realmId);
      expect(team).toMatchObject({ name: 'hamletcharacters' });
      expect(JSON.parse(team!.settings as string)).toEqual({ can_mention_group: 6, can_manage_group: 1 });
      const members = await all('SELECT user_id FROM user_group_member WHERE group_id = ? ORDER BY user_id', team!.id);
      expect(members.map((m) => Number(m.user_id))).toEqual([id('iago@zulip.example'), id('hamlet@zulip.example')].sort((a, b) => a - b));

      const counts = await realmCounts(db, realmId);
      expect(counts).toMatchObject({
        realm: 1,
        user: 9,
        stream: 2,
        subscription: 8,
        message: 7,
        user_message: 26,
        reaction: 4,
        dm_conversation: 2,
        dm_participant: 5,
        attachment: 1,
        message_attachment: 1,
        realm_emoji: 1,
        user_group: 1,
        user_group_member: 2,
        user_group_subgroup: 0,
        default_stream: 1,
        realm_domain: 1,
        realm_linkifier: 1,
        user_topic: 1,
        muted_user: 1,
        alert_word: 1,
        user_status: 1,
      });
      expect(counts).toEqual(report.tables);
    });
  });

  it('gives a server on the installation the imported history and files', async () => {
    const { target } = await imported();
    const ctx = openInstallation(target);
    try {
      const realm = (await findRealm(ctx, 'zulipco'))!;
      const hamlet = (await ctx.storage.read((tx) => tx.users.byDeliveryEmail(realm.id, 'hamlet@zulip.example'))) as User;
      const page = must(await getMessages(ctx, { realm, user: hamlet }, { anchor: 'newest', num_before: 50, num_after: 0 })) as {
        messages: { content: string; flags: string[] }[];
      };
      expect(page.messages.map((m) => m.content.replace(/<[^>]+>/g, ''))).toEqual(
        expect.arrayContaining(['Welcome to Denmark!', 'hi Iago, a private word', 'a group chat for three', 'edited: I will be there']),
      );
      expect(await ctx.uploads.get(avatarBlobKey(realm.id, uploadedAvatarFile(realm, hamlet)))).toEqual(
        new Uint8Array(readFileSync(join(FIXTURE, 'avatars/2/9a47e62db9f80cb0208b752beb34ee5c32257613.png'))),
      );
      expect(new TextDecoder().decode((await ctx.uploads.get(`${realm.id}/ab/Xyz123AbC456dEf789gHi012/plan.txt`))!)).toBe('Plan: take castle\n');
    } finally {
      await closeContext(ctx);
    }
  });

  it('reads the export’s tarball too, next to the realm imported from its directory', async () => {
    const { target, report } = await imported();
    const dir = mkdtempSync(join(tmpdir(), 'zulip-tarball-'));
    cpSync(FIXTURE, join(dir, 'zulip-export-20240101'), { recursive: true });
    const tarball = join(dir, 'zulip-export.tar.gz');
    execFileSync('tar', ['czf', tarball, '-C', dir, 'zulip-export-20240101']);
    output = '';
    await teamchat(['import', '--from-zulip', tarball, ...target.args, '--subdomain', 'copy', '--url', 'https://copy.example.com']);
    expect(output).toMatch(/^Imported realm \d+ at https:\/\/copy\.example\.com \(subdomain copy\): 9 users, 2 channels, 7 messages, 3 files\n/);
    expect(output).toContain('Imported users have no password');
    await withHandle(async (db) => {
      const [{ id }] = (await db.all("SELECT id FROM realm WHERE subdomain = 'copy'")) as [{ id: number }];
      expect(await realmCounts(db, id)).toEqual(report.tables);
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses what is not a Zulip export, and a missing --url, writing nothing', async () => {
    const { target } = await imported();
    const realmsBefore = await withHandle(async (db) => db.all('SELECT id FROM realm ORDER BY id'));
    await expect(teamchat(['import', '--from-zulip', FIXTURE, ...target.args, '--subdomain', 'x'])).rejects.toThrow('--url is required with --from-zulip');
    const empty = mkdtempSync(join(tmpdir(), 'not-zulip-'));
    await expect(teamchat(['import', '--from-zulip', empty, ...target.args, '--subdomain', 'x', '--url', 'https://x.example.com'])).rejects.toThrow(
      '--from-zulip: realm.json is missing; not a Zulip organisation export',
    );
    writeFileSync(join(empty, 'realm.json'), '{"zerver_realm": [');
    await expect(teamchat(['import', '--from-zulip', empty, ...target.args, '--subdomain', 'x', '--url', 'https://x.example.com'])).rejects.toThrow('--from-zulip: realm.json is not valid JSON');
    writeFileSync(join(empty, 'realm.json'), '{"zerver_realm": []}');
    await expect(teamchat(['import', '--from-zulip', empty, ...target.args, '--subdomain', 'x', '--url', 'https://x.example.com'])).rejects.toThrow('not a Zulip export');
    await expect(teamchat(['import', '--from-zulip', FIXTURE, ...target.args, '--url', 'https://other.example.com'])).rejects.toThrow(
      "this installation already has a realm with the subdomain 'zulipco'",
    );
    expect(await withHandle(async (db) => db.all('SELECT id FROM realm ORDER BY id'))).toEqual(realmsBefore);
  });
});
