/**
 * The storage contract suite: every driver runs it through `testStorageDriver(name, factory)`
 * (see sqlite.test.ts). It checks the documented behaviour of types.ts, store by store, then the
 * transaction, read, handle and close semantics. Race semantics under load: concurrency.case.ts.
 */
import type { Storage, Tx } from '@teamchat/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from './core-deps.js';
import { describeChannelStores } from './channels.case.js';
import { describeRealmEmojiStore } from './emoji.case.js';
import { describeCustomProfileFieldStore } from './profile-fields.case.js';
import { describeAlertWordStore } from './alert-words.case.js';
import { describeLinkifierStore } from './linkifiers.case.js';
import { describePlaygroundStore } from './playgrounds.case.js';
import { describeBotStorageStore } from './bot-storage.case.js';
import { describeUserGroupStore } from './user-groups.case.js';
import { describeDraftStore } from './drafts.case.js';
import { describeNavigationViewStore } from './navigation-views.case.js';
import { describeSavedSnippetStore } from './saved-snippets.case.js';
import { describePushStore } from './push.case.js';
import { describeRealmDomainStore } from './realm-domains.case.js';
import { describeKeptIds } from './kept-ids.case.js';
import { describeDmPeers } from './dm-peers.case.js';
import { describeRecentDmConversations } from './recent-dm-conversations.case.js';
import { describeScheduledMessageStore } from './scheduled-messages.case.js';
import { describeTopicMessages } from './topic-messages.case.js';
import { describeMessageCopies } from './message-copies.case.js';
import { describeMessageReads } from './message-reads.case.js';
import { describeAttachmentStore } from './attachments.case.js';
import { describeUserTopicStore } from './user-topics.case.js';
import { describeChannelFolderStore } from './channel-folders.case.js';
import { describeInvitationStore } from './invitations.case.js';
import { describeUserStatusStore } from './user-status.case.js';
import { describeMutedUserStore } from './muted-users.case.js';
import { describeBotStore } from './bots.case.js';
import { describePresenceStore } from './presence.case.js';
import { describeSubmessageStore } from './submessages.case.js';
import { commit, gate, newMail, newRealm, newUser, seed, tick } from './fixtures.js';

export type StorageFactory = () => Storage | Promise<Storage>;

/** Contract cases a driver configuration declares it does not keep, and why. */
export interface DeclaredSkips {
  reason: string;
  tests: readonly string[];
}

export function testStorageDriver(name: string, factory: StorageFactory, skips?: DeclaredSkips): void {
  const caseIt = (title: string, body: () => Promise<void>) => (skips?.tests.includes(title) ? it.skip : it)(title, body);
  describe(`storage contract: ${name}`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await factory();
    });
    afterEach(() => storage.close());

    describe('realms', () => {
      it('insert returns the record with its new ID; byId, bySubdomain and all find it', async () => {
        const input = newRealm({ subdomain: '', webPublicAccessEnabled: true, defaultAvatarSource: 'J' });
        const realm = await commit(storage, (tx) => tx.realms.insert(input));
        expect(realm).toEqual({ ...input, settings: {}, userSettingsDefaults: {}, id: expect.any(Number) });
        const other = await commit(storage, (tx) => tx.realms.insert(newRealm()));
        await storage.read(async (tx) => {
          expect(await tx.realms.byId(realm.id)).toEqual(realm);
          expect(await tx.realms.bySubdomain('')).toEqual(realm);
          expect(await tx.realms.bySubdomain(other.subdomain)).toEqual(other);
          expect(await tx.realms.all()).toEqual([realm, other]);
          expect(await tx.realms.byId(other.id + 1000)).toBeUndefined();
          expect(await tx.realms.bySubdomain('nope')).toBeUndefined();
        });
      });

      it('stores settings as given and reads them back; an update replaces them whole', async () => {
        const settings = { new_stream_announcements_stream_id: 4, can_invite_users_group: { direct_members: [1], direct_subgroups: ['role:administrators'] } };
        const realm = await commit(storage, (tx) => tx.realms.insert(newRealm({ settings })));
        expect(realm.settings).toEqual(settings);
        expect((await storage.read((tx) => tx.realms.byId(realm.id)))?.settings).toEqual(settings);
        await commit(storage, (tx) => tx.realms.update(realm.id, { settings: { welcome_message_custom_text: 'hi' } }));
        expect((await storage.read((tx) => tx.realms.byId(realm.id)))?.settings).toEqual({ welcome_message_custom_text: 'hi' });
      });

      it('update sets the given fields, booleans included, and leaves the rest', async () => {
        const { realm } = await seed(storage);
        await commit(storage, (tx) => tx.realms.update(realm.id, { name: 'Renamed', deactivated: true, emailAuthEnabled: false }));
        await commit(storage, (tx) => tx.realms.update(realm.id, {}));
        await commit(storage, (tx) => tx.realms.update(realm.id + 1000, { name: 'Ghost' }));
        const stored = await storage.read((tx) => tx.realms.byId(realm.id));
        expect(stored).toEqual({ ...realm, name: 'Renamed', deactivated: true, emailAuthEnabled: false });
        expect(await storage.read((tx) => tx.realms.all())).toHaveLength(1);
      });

      it('refuses a second realm with the same subdomain', async () => {
        await seed(storage, [], { subdomain: 'taken' });
        await expect(storage.transaction(async (tx) => ok(await tx.realms.insert(newRealm({ subdomain: 'taken' }))))).rejects.toThrow();
        expect(await storage.read((tx) => tx.realms.all())).toHaveLength(1);
      });
    });

    describe('users', () => {
      it('insert round-trips every field; byId, byApiKey find the user', async () => {
        const { realm } = await seed(storage);
        const input = newUser(realm.id, {
          passwordHash: 'scrypt$abc',
          role: 200,
          timezone: 'Europe/Paris',
          avatarSource: 'U',
          avatarVersion: 7,
          isImportedStub: true,
          awaitingFirstLogin: true,
          canCreateUsers: true,
          canChangeUserEmails: true,
          emailAddressVisibility: 4,
          settings: { enter_sends: true, web_font_size_px: 20, emojiset: 'text', twenty_four_hour_time: null },
        });
        const user = await commit(storage, (tx) => tx.users.insert(input));
        expect(user).toEqual({ ...input, id: expect.any(Number) });
        await storage.read(async (tx) => {
          expect(await tx.users.byId(realm.id, user.id)).toEqual(user);
          expect(await tx.users.byApiKey(user.apiKey)).toEqual(user);
          expect(await tx.users.byApiKey('no-such-key')).toBeUndefined();
          expect(await tx.users.byId(realm.id, user.id + 1000)).toBeUndefined();
        });
      });

      it('insert without settings stores and returns the empty settings object', async () => {
        const { realm } = await seed(storage);
        const { settings: _settings, ...input } = newUser(realm.id);
        const user = await commit(storage, (tx) => tx.users.insert(input));
        expect(user).toEqual({ ...input, settings: {}, id: expect.any(Number) });
        expect(await storage.read((tx) => tx.users.byId(realm.id, user.id))).toEqual(user);
      });

      it('update replaces the settings object as a whole, including with an empty one', async () => {
        const { realm, users: [user] } = await seed(storage, [{ settings: { enter_sends: true, color_scheme: 2 } }]);
        expect(user!.settings).toEqual({ enter_sends: true, color_scheme: 2 });
        await commit(storage, (tx) => tx.users.update(realm.id, user!.id, { settings: { default_language: 'de' } }));
        expect((await storage.read((tx) => tx.users.byId(realm.id, user!.id)))!.settings).toEqual({ default_language: 'de' });
        await commit(storage, (tx) => tx.users.update(realm.id, user!.id, { fullName: 'Renamed' }));
        expect((await storage.read((tx) => tx.users.byId(realm.id, user!.id)))!.settings).toEqual({ default_language: 'de' });
        await commit(storage, (tx) => tx.users.update(realm.id, user!.id, { settings: {} }));
        expect(await storage.read((tx) => tx.users.byId(realm.id, user!.id))).toEqual({ ...user, fullName: 'Renamed', settings: {} });
      });

      it('stores bots with their type and owner', async () => {
        const { realm, users: [owner] } = await seed(storage, [{ role: 100 }]);
        const bot = await commit(storage, (tx) =>
          tx.users.insert(newUser(realm.id, { isBot: true, botType: 2, botOwnerId: owner!.id, isActive: false })),
        );
        expect(await storage.read((tx) => tx.users.byId(realm.id, bot.id))).toEqual(bot);
      });

      it('byDeliveryEmail ignores ASCII case', async () => {
        const { realm, users: [user] } = await seed(storage, [{ deliveryEmail: 'Mixed.Case@Example.COM' }]);
        await storage.read(async (tx) => {
          expect(await tx.users.byDeliveryEmail(realm.id, 'mixed.case@example.com')).toEqual(user);
          expect(await tx.users.byDeliveryEmail(realm.id, 'MIXED.CASE@EXAMPLE.COM')).toEqual(user);
          expect(await tx.users.byDeliveryEmail(realm.id, 'other@example.com')).toBeUndefined();
        });
      });

      it('refuses a second user with the same email in a realm, in any case, but not across realms', async () => {
        const { realm } = await seed(storage, [{ deliveryEmail: 'dup@example.com' }]);
        const insertDup = (realmId: number) =>
          storage.transaction(async (tx) => ok(await tx.users.insert(newUser(realmId, { deliveryEmail: 'DUP@example.com' }))));
        await expect(insertDup(realm.id)).rejects.toThrow();
        const { realm: other } = await seed(storage);
        expect((await insertDup(other.id)).isOk()).toBe(true);
      });

      it('list returns the realm users ordered by ID, optionally limited to IDs', async () => {
        const { realm, users } = await seed(storage, [{}, {}, {}, { isBot: true, botType: 1 }]);
        const { users: [foreign] } = await seed(storage, [{}]);
        await storage.read(async (tx) => {
          expect(await tx.users.list(realm.id)).toEqual(users);
          const [a, , c, d] = users;
          expect(await tx.users.list(realm.id, [d!.id, a!.id, c!.id])).toEqual([a, c, d]);
          expect(await tx.users.list(realm.id, [a!.id, a!.id])).toEqual([a]);
          expect(await tx.users.list(realm.id, [foreign!.id, 999_999])).toEqual([]);
          expect(await tx.users.list(realm.id, [])).toEqual([]);
          expect(await tx.users.list(realm.id + 1000)).toEqual([]);
        });
      });

      it('roles returns each realm user’s ID, role and activity, ordered by ID', async () => {
        const { realm, users } = await seed(storage, [{ role: 600 }, { isActive: false }, {}]);
        await seed(storage, [{}]);
        await storage.read(async (tx) => {
          expect(await tx.users.roles(realm.id)).toEqual(users.map((u) => ({ id: u.id, role: u.role, isActive: u.isActive })));
          expect(await tx.users.roles(realm.id + 1000)).toEqual([]);
        });
      });

      it('botsOwnedBy returns only that owner’s bots in that realm', async () => {
        const { realm, users: [alice, bob] } = await seed(storage, [{}, {}]);
        const [b1, b2, b3] = await commit(storage, async (tx) => [
          await tx.users.insert(newUser(realm.id, { isBot: true, botType: 1, botOwnerId: alice!.id })),
          await tx.users.insert(newUser(realm.id, { isBot: true, botType: 3, botOwnerId: bob!.id })),
          await tx.users.insert(newUser(realm.id, { isBot: true, botType: 2, botOwnerId: alice!.id, isActive: false })),
        ]);
        await storage.read(async (tx) => {
          expect(await tx.users.botsOwnedBy(realm.id, alice!.id)).toEqual([b1, b3]);
          expect(await tx.users.botsOwnedBy(realm.id, bob!.id)).toEqual([b2]);
          expect(await tx.users.botsOwnedBy(realm.id, b1!.id)).toEqual([]);
          expect(await tx.users.botsOwnedBy(realm.id + 1000, alice!.id)).toEqual([]);
        });
      });

      it('countActiveHumanOwners counts active, non-bot owners of the realm only', async () => {
        const { realm } = await seed(storage, [
          { role: 100 },
          { role: 100 },
          { role: 100, isActive: false },
          { role: 100, isBot: true, botType: 1 },
          { role: 200 },
        ]);
        await seed(storage, [{ role: 100 }]);
        expect(await storage.read((tx) => tx.users.countActiveHumanOwners(realm.id))).toBe(2);
        expect(await storage.read((tx) => tx.users.countActiveHumanOwners(realm.id + 1000))).toBe(0);
      });

      it('update sets the given fields and ignores undefined ones', async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        await commit(storage, (tx) =>
          tx.users.update(realm.id, user!.id, {
            fullName: 'New Name',
            role: 300,
            isActive: false,
            canCreateUsers: true,
            passwordHash: null,
            botOwnerId: undefined,
            avatarVersion: 2,
          }),
        );
        await commit(storage, (tx) => tx.users.update(realm.id, user!.id, {}));
        expect(await storage.read((tx) => tx.users.byId(realm.id, user!.id))).toEqual({
          ...user,
          fullName: 'New Name',
          role: 300,
          isActive: false,
          canCreateUsers: true,
          avatarVersion: 2,
        });
      });
    });

    describe('realm scoping', () => {
      it('a user of realm A is neither found nor changed through realm B', async () => {
        const { realm: a, users: [alice] } = await seed(storage, [{ deliveryEmail: 'alice@example.com' }]);
        const { realm: b } = await seed(storage, [{}]);
        await commit(storage, (tx) => tx.users.update(b.id, alice!.id, { fullName: 'Hijacked' }));
        await storage.read(async (tx) => {
          expect(await tx.users.byId(b.id, alice!.id)).toBeUndefined();
          expect(await tx.users.byDeliveryEmail(b.id, 'alice@example.com')).toBeUndefined();
          expect(await tx.users.list(b.id, [alice!.id])).toEqual([]);
          expect(await tx.users.byId(a.id, alice!.id)).toEqual(alice);
        });
      });
    });

    describe('outbox', () => {
      it('insert, pending (oldest first, limited), list per realm and markSent', async () => {
        const { realm } = await seed(storage);
        const { realm: other } = await seed(storage);
        const input = newMail(realm.id, { to: 'rcpt@example.com', subject: 'Hello', body: 'Line 1\nLine 2' });
        const [m1, m2, m3] = await commit(storage, async (tx) => [
          await tx.outbox.insert(input),
          await tx.outbox.insert(newMail(other.id)),
          await tx.outbox.insert(newMail(realm.id)),
        ]);
        expect(m1).toEqual({ ...input, id: expect.any(Number), sentAt: null });
        expect(await storage.read((tx) => tx.outbox.pending())).toEqual([m1, m2, m3]);
        expect(await storage.read((tx) => tx.outbox.pending(2))).toEqual([m1, m2]);

        await commit(storage, (tx) => tx.outbox.markSent(m1!.id, 1234));
        expect(await storage.read((tx) => tx.outbox.pending())).toEqual([m2, m3]);
        expect(await storage.read((tx) => tx.outbox.list(realm.id))).toEqual([{ ...m1, sentAt: 1234 }, m3]);
        expect(await storage.read((tx) => tx.outbox.list(other.id))).toEqual([m2]);
      });
    });

    describeChannelStores(() => storage);
    describeRealmEmojiStore(() => storage);
    describeCustomProfileFieldStore(() => storage);
    describeAlertWordStore(() => storage);
    describeLinkifierStore(() => storage);
    describePlaygroundStore(() => storage);
    describeBotStorageStore(() => storage);
    describeUserGroupStore(() => storage);
    describeDraftStore(() => storage);
    describeNavigationViewStore(() => storage);
    describeSavedSnippetStore(() => storage);
    describePushStore(() => storage);
    describeRealmDomainStore(() => storage);
    describeKeptIds(() => storage);
    describeDmPeers(() => storage);
    describeRecentDmConversations(() => storage);
    describeScheduledMessageStore(() => storage);
    describeTopicMessages(() => storage);
    describeMessageCopies(() => storage);
    describeMessageReads(() => storage);
    describeAttachmentStore(() => storage);
    describeUserTopicStore(() => storage);
    describeChannelFolderStore(() => storage);
    describeInvitationStore(() => storage);
    describeUserStatusStore(() => storage);
    describeMutedUserStore(() => storage);
    describeBotStore(() => storage);
    describePresenceStore(() => storage);
    describeSubmessageStore(() => storage);

    describe('transaction', () => {
      it('commits on Ok and returns the result unchanged; the callback reads its own writes', async () => {
        const result = await storage.transaction(async (tx) => {
          const realm = await tx.realms.insert(newRealm());
          const user = await tx.users.insert(newUser(realm.id));
          expect(await tx.users.byId(realm.id, user.id)).toEqual(user);
          return ok({ realm, user });
        });
        const { realm, user } = result._unsafeUnwrap();
        expect(await storage.read((tx) => tx.users.byId(realm.id, user.id))).toEqual(user);
      });

      it('rolls back every store on Err and returns the Err', async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        const result = await storage.transaction(async (tx) => {
          await tx.users.update(realm.id, user!.id, { fullName: 'Changed' });
          await tx.users.insert(newUser(realm.id));
          await tx.realms.update(realm.id, { name: 'Changed' });
          await tx.outbox.insert(newMail(realm.id));
          await tick();
          return err('refused' as const);
        });
        expect(result._unsafeUnwrapErr()).toBe('refused');
        await storage.read(async (tx) => {
          expect(await tx.users.list(realm.id)).toEqual([user]);
          expect(await tx.realms.byId(realm.id)).toEqual(realm);
          expect(await tx.outbox.list(realm.id)).toEqual([]);
        });
      });

      it('rolls back and rethrows the same exception when the callback throws', async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        const boom = new Error('boom');
        await expect(
          storage.transaction(async (tx) => {
            await tx.users.update(realm.id, user!.id, { fullName: 'Changed' });
            await tick();
            throw boom;
          }),
        ).rejects.toBe(boom);
        expect(await storage.read((tx) => tx.users.byId(realm.id, user!.id))).toEqual(user);
        // The store stays usable.
        expect((await storage.transaction(async () => ok(1)))._unsafeUnwrap()).toBe(1);
      });

      it('a failed statement inside the callback rolls back the earlier writes when it propagates', async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        await expect(
          storage.transaction(async (tx) => {
            await tx.users.update(realm.id, user!.id, { fullName: 'Changed' });
            await tx.users.insert(newUser(realm.id, { apiKey: user!.apiKey }));
            return ok(undefined);
          }),
        ).rejects.toThrow();
        expect(await storage.read((tx) => tx.users.byId(realm.id, user!.id))).toEqual(user);
      });
    });

    describe('afterCommit', () => {
      it('runs callbacks in order after the commit, before the caller is answered; a read they start sees the commit', async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        const seen: string[] = [];
        let fromCallback: Promise<void> | undefined;
        const first = storage.transaction(async (tx) => {
          await tx.users.update(realm.id, user!.id, { fullName: 'Committed' });
          tx.afterCommit(() => seen.push('one'));
          tx.afterCommit(() => {
            seen.push('two');
            fromCallback = storage.read(async (tx) => {
              seen.push(`callback's read sees ${(await tx.users.byId(realm.id, user!.id))!.fullName}`);
            });
          });
          seen.push('callback');
          return ok(undefined);
        });
        await first.then(() => seen.push('answered'));
        await fromCallback;
        expect(seen.slice(0, 4)).toEqual(['callback', 'one', 'two', 'answered']);
        expect(seen).toContain("callback's read sees Committed");
        const next = await storage.read(async (tx) => (await tx.users.byId(realm.id, user!.id))!.fullName);
        expect(next).toBe('Committed');
      });

      it("a read's snapshot is fixed when its callback is called: a commit whose callbacks run later is not in it", async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        const seen: string[] = [];
        const hold = gate();
        const reading = storage.read(async (tx) => {
          seen.push('read called');
          await hold.promise;
          return (await tx.users.byId(realm.id, user!.id))!.fullName;
        });
        await tick();
        const writing = storage.transaction(async (tx) => {
          await tx.users.update(realm.id, user!.id, { fullName: 'Renamed' });
          tx.afterCommit(() => seen.push('after commit'));
          return ok(undefined);
        });
        // A driver whose reads wait for nothing commits meanwhile; one that serializes them waits.
        await tick();
        hold.open();
        const name = await reading;
        await writing;
        expect(seen).toEqual(['read called', 'after commit']);
        expect(name).toBe(user!.fullName);
      });

      it('runs nothing when the transaction returns Err or throws', async () => {
        const seen: string[] = [];
        await storage.transaction(async (tx) => {
          tx.afterCommit(() => seen.push('err'));
          return err('no');
        });
        await expect(
          storage.transaction(async (tx) => {
            tx.afterCommit(() => seen.push('throw'));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(seen).toEqual([]);
      });

      it('a throwing callback does not undo the commit or stop later callbacks', async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        const seen: string[] = [];
        const quiet = console.error;
        console.error = () => undefined;
        try {
          const result = await storage.transaction(async (tx) => {
            await tx.users.update(realm.id, user!.id, { fullName: 'Kept' });
            tx.afterCommit(() => {
              throw new Error('listener failed');
            });
            tx.afterCommit(() => seen.push('later'));
            return ok('done');
          });
          expect(result._unsafeUnwrap()).toBe('done');
        } finally {
          console.error = quiet;
        }
        expect(seen).toEqual(['later']);
        expect((await storage.read((tx) => tx.users.byId(realm.id, user!.id)))!.fullName).toBe('Kept');
      });

      it('is refused inside read', async () => {
        await expect(storage.read(async (tx) => tx.afterCommit(() => undefined))).rejects.toThrow(/not available inside read/);
      });
    });

    describe('read', () => {
      it('returns the callback value and sees a consistent snapshot while a transaction runs', async () => {
        const { realm, users: [user] } = await seed(storage, [{ avatarVersion: 1 }]);
        const snapshot = storage.read(async (tx) => {
          const first = await tx.users.byId(realm.id, user!.id);
          await tick();
          await tick();
          const second = await tx.users.byId(realm.id, user!.id);
          return [first!.avatarVersion, second!.avatarVersion];
        });
        const write = storage.transaction(async (tx) => ok(await tx.users.update(realm.id, user!.id, { avatarVersion: 2 })));
        expect(await snapshot).toEqual([1, 1]);
        await write;
        expect((await storage.read((tx) => tx.users.byId(realm.id, user!.id)))!.avatarVersion).toBe(2);
      });

      it('rejects write methods and leaves the data unchanged', async () => {
        const { realm, users: [user] } = await seed(storage, [{}]);
        await expect(storage.read((tx) => tx.users.update(realm.id, user!.id, { fullName: 'X' }))).rejects.toThrow(/read/);
        await expect(storage.read((tx) => tx.realms.insert(newRealm()))).rejects.toThrow(/read/);
        await expect(storage.read((tx) => tx.outbox.insert(newMail(realm.id)))).rejects.toThrow(/read/);
        expect(await storage.read((tx) => tx.users.byId(realm.id, user!.id))).toEqual(user);
        expect(await storage.read((tx) => tx.realms.all())).toEqual([realm]);
      });

      it('rethrows the callback exception and stays usable', async () => {
        const boom = new Error('boom');
        await expect(storage.read(async () => { throw boom; })).rejects.toBe(boom);
        expect(await storage.read(async (tx) => tx.realms.all())).toEqual([]);
      });
    });

    describe('handles and nesting', () => {
      it('a tx handle used after its callback settled rejects', async () => {
        const { realm } = await seed(storage, [{}]);
        let leaked: Tx | undefined;
        await storage.transaction(async (tx) => {
          leaked = tx;
          return ok(undefined);
        });
        await expect(leaked!.users.list(realm.id)).rejects.toThrow(/settled/);
        await expect(leaked!.users.update(realm.id, 1, { fullName: 'Late' })).rejects.toThrow(/settled/);
      });

      it('a leaked handle stays refused while a later operation holds the store', async () => {
        const { realm } = await seed(storage, [{}]);
        let leaked: Tx | undefined;
        let leakedUsers: Tx['users'] | undefined;
        await storage.read(async (tx) => {
          leakedUsers = tx.users;
          leaked = tx;
        });
        const during = await storage.transaction(async (tx) => {
          const fromLeak = await Promise.all([
            leaked!.users.list(realm.id).catch((e: unknown) => e),
            leakedUsers!.list(realm.id).catch((e: unknown) => e),
            leaked!.realms.all().catch((e: unknown) => e),
          ]);
          return ok({ fromLeak, own: await tx.users.list(realm.id) });
        });
        const { fromLeak, own } = during._unsafeUnwrap();
        for (const error of fromLeak) expect(String(error)).toMatch(/settled/);
        expect(own.length).toBeGreaterThan(0);
      });

      it('a method read off a store works detached while its handle lives, and is refused after', async () => {
        const { realm } = await seed(storage, [{}]);
        let detached: Tx['users']['list'] | undefined;
        const inside = await storage.read(async (tx) => {
          const { list } = tx.users;
          detached = list;
          return (await list(realm.id)).length;
        });
        expect(inside).toBeGreaterThan(0);
        await expect(detached!(realm.id)).rejects.toThrow(/settled/);
      });

      it('a read handle refuses writes and afterCommit', async () => {
        const { realm } = await seed(storage, [{}]);
        const outcome = await storage.read(async (tx) => ({
          write: await tx.users.update(realm.id, 1, { fullName: 'Nope' }).catch((e: unknown) => e),
          afterCommit: (() => {
            try {
              tx.afterCommit(() => undefined);
              return null;
            } catch (e) {
              return e;
            }
          })(),
        }));
        expect(String(outcome.write)).toMatch(/cannot run inside read/);
        expect(String(outcome.afterCommit)).toMatch(/not available inside read/);
      });

      caseIt('an operation started inside a callback rejects instead of waiting forever', async () => {
        const nested = await storage.transaction(async () => {
          const error = await storage.read(async () => 'inner').catch((e: unknown) => e);
          return ok(error);
        });
        expect(nested._unsafeUnwrap()).toBeInstanceOf(Error);
        const fromRead = await storage.read(() => storage.transaction(async () => ok(1)).catch((e: unknown) => e));
        expect(fromRead).toBeInstanceOf(Error);
        // Work the callback spawns and that runs after it settled is not nested.
        const later = gate();
        let afterwards: Promise<unknown> | undefined;
        await storage.read(async () => {
          afterwards = later.promise.then(() => storage.read(async () => 'after'));
        });
        later.open();
        expect(await afterwards).toBe('after');
      });
    });

    describe('close', () => {
      it('waits for the running and queued operations, then refuses new ones', async () => {
        const { realm } = await seed(storage);
        const hold = gate();
        const running = storage.transaction(async (tx) => {
          await hold.promise;
          await tx.realms.update(realm.id, { name: 'Committed before close' });
          return ok('first');
        });
        // A transaction queued behind it runs after it; a read may run before or after it.
        const queued = storage.transaction(async (tx) => ok(await tx.realms.byId(realm.id)));
        const read = storage.read((tx) => tx.realms.byId(realm.id));
        let closed = false;
        const closing = storage.close().then(() => {
          closed = true;
        });
        await expect(storage.read(async () => 'late')).rejects.toThrow(/close/);
        await tick();
        expect(closed).toBe(false);
        hold.open();
        expect((await running)._unsafeUnwrap()).toBe('first');
        expect((await queued)._unsafeUnwrap()!.name).toBe('Committed before close');
        expect([realm.name, 'Committed before close']).toContain((await read)!.name);
        await closing;
        expect(closed).toBe(true);
        await expect(storage.transaction(async () => ok(1))).rejects.toThrow(/close/);
      });

      it('is idempotent', async () => {
        await Promise.all([storage.close(), storage.close()]);
        await storage.close();
      });
    });
  });
}
