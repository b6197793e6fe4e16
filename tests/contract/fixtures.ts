/** Records and helpers shared by the storage contract suites. */
import type { NewMail, NewRealm, NewStream, NewUser, Realm, Storage, Subscription, Tx, User } from '@teamchat/core';
import { ok } from './core-deps.js';

let serial = 0;

export function newRealm(overrides: Partial<NewRealm> = {}): NewRealm {
  serial++;
  return {
    subdomain: `realm${serial}`,
    name: `Realm ${serial}`,
    description: 'A **test** realm',
    url: `http://realm${serial}.example.com`,
    uuid: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    dateCreated: 1_700_000_000 + serial,
    deactivated: false,
    webPublicAccessEnabled: false,
    emailAuthEnabled: true,
    defaultAvatarSource: 'G',
    ...overrides,
  };
}

export function newUser(realmId: number, overrides: Partial<NewUser> = {}): NewUser {
  serial++;
  return {
    realmId,
    deliveryEmail: `user${serial}@example.com`,
    fullName: `User ${serial}`,
    passwordHash: null,
    apiKey: `key${String(serial).padStart(29, '0')}`,
    role: 400,
    isActive: true,
    isBot: false,
    botType: null,
    botOwnerId: null,
    timezone: '',
    avatarSource: 'G',
    avatarVersion: 1,
    dateJoined: '2024-01-02T03:04:05.000006+00:00',
    isImportedStub: false,
    awaitingFirstLogin: false,
    canCreateUsers: false,
    canChangeUserEmails: false,
    emailAddressVisibility: 1,
    settings: {},
    ...overrides,
  };
}

export function newMail(realmId: number, overrides: Partial<NewMail> = {}): NewMail {
  serial++;
  return { realmId, to: `to${serial}@example.com`, subject: `Subject ${serial}`, body: `Body ${serial}`, createdAt: serial, ...overrides };
}

export function newStream(realmId: number, overrides: Partial<NewStream> = {}): NewStream {
  serial++;
  return {
    realmId,
    name: `channel ${serial}`,
    description: `About **${serial}**`,
    renderedDescription: `<p>About <strong>${serial}</strong></p>`,
    dateCreated: 1_700_000_000 + serial,
    creatorId: null,
    inviteOnly: false,
    isWebPublic: false,
    historyPublicToSubscribers: true,
    isArchived: false,
    messageRetentionDays: null,
    firstMessageId: null,
    topicsPolicy: 'inherit',
    isRecentlyActive: true,
    folderId: null,
    defaultPushNotifications: false,
    groupSettings: {},
    ...overrides,
  };
}

export function newSubscription(realmId: number, userId: number, streamId: number, overrides: Partial<Subscription> = {}): Subscription {
  return {
    realmId,
    userId,
    streamId,
    active: true,
    color: '#76ce90',
    isMuted: false,
    pinToTop: false,
    desktopNotifications: null,
    audibleNotifications: null,
    pushNotifications: null,
    emailNotifications: null,
    wildcardMentionsNotify: null,
    ...overrides,
  };
}

/** Inserts a realm and, optionally, users in it, in one committed transaction. */
export async function seed(
  storage: Storage,
  users: Partial<NewUser>[] = [],
  realm: Partial<NewRealm> = {},
): Promise<{ realm: Realm; users: User[] }> {
  const result = await storage.transaction(async (tx) => {
    const inserted = await tx.realms.insert(newRealm(realm));
    const rows: User[] = [];
    for (const user of users) rows.push(await tx.users.insert(newUser(inserted.id, user)));
    return ok({ realm: inserted, users: rows });
  });
  return result._unsafeUnwrap();
}

/** Commits `fn` and returns its value (for tests whose transaction cannot fail). */
export async function commit<T>(storage: Storage, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await storage.transaction(async (tx) => ok(await fn(tx)));
  return result._unsafeUnwrap();
}

/** A promise with its resolve function, to hold an operation open until the test releases it. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Yields to the event loop (timers included), so other queued work gets a chance to run. */
export const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Wraps a storage so that every store call first waits 0–`maxMs` ms, as a statement over a
 * network would. Over an embedded driver a callback otherwise runs to its end in one burst of
 * microtasks, before the server even reads the next request, and a race test could pass with
 * no isolation at all.
 */
export function withLatency(inner: Storage, maxMs = 2): Storage {
  const slow = (tx: Tx): Tx => {
    const wrap = <S extends object>(store: S): S => {
      const out: Record<string, unknown> = {};
      for (const [name, method] of Object.entries(store)) {
        out[name] = async (...args: unknown[]) => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs));
          return method(...args);
        };
      }
      return out as S;
    };
    return {
      realms: wrap(tx.realms),
      users: wrap(tx.users),
      outbox: wrap(tx.outbox),
      messages: wrap(tx.messages),
      reactions: wrap(tx.reactions),
      alertWords: wrap(tx.alertWords),
      linkifiers: wrap(tx.linkifiers),
      userGroups: wrap(tx.userGroups),
      drafts: wrap(tx.drafts),
      scheduledMessages: wrap(tx.scheduledMessages),
      realmEmoji: wrap(tx.realmEmoji),
      savedSnippets: wrap(tx.savedSnippets),
      push: wrap(tx.push),
      realmDomains: wrap(tx.realmDomains),
      customProfileFields: wrap(tx.customProfileFields),
      navigationViews: wrap(tx.navigationViews),
      attachments: wrap(tx.attachments),
      channelFolders: wrap(tx.channelFolders),
      streams: wrap(tx.streams),
      subscriptions: wrap(tx.subscriptions),
      defaultStreams: wrap(tx.defaultStreams),
      userTopics: wrap(tx.userTopics),
      invitations: wrap(tx.invitations),
      playgrounds: wrap(tx.playgrounds),
      botStorage: wrap(tx.botStorage),
      userStatuses: wrap(tx.userStatuses),
      mutedUsers: wrap(tx.mutedUsers),
      bots: wrap(tx.bots),
      presence: wrap(tx.presence),
      submessages: wrap(tx.submessages),
      afterCommit: (cb) => tx.afterCommit(cb),
    };
  };
  return {
    transaction: (fn) => inner.transaction((tx) => fn(slow(tx))),
    read: (fn) => inner.read((tx) => fn(slow(tx))),
    close: () => inner.close(),
  };
}
