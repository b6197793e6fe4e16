/**
 * Seeds a large message history into a data directory straight through core's storage
 * contract (no rendering, no events): the shape the history figure runs against.
 * Deterministic for given sizes.
 */
import { type Ctx, FLAG_BITS, type Realm, type Storage, type User } from '@teamchat/core';
import { ok } from 'neverthrow';
import { openDataDir } from '../packages/cli/src/data-dir.js';
import { benchRealm } from './probe-world.js';
import { SEEDING } from './seed-world.js';

export interface MessageSeedSizes {
  messages: number;
  channels: number;
  users: number;
  /** Subscribers per channel besides the owner (who is in every channel). */
  subscribersPerChannel: number;
  topicsPerChannel: number;
}

export interface SeededWorld {
  ctx: Ctx;
  realm: Realm;
  owner: User;
  streamIds: number[];
}

const BATCH = 5000;

/**
 * Seeds `dataDir` (empty), or `storage` (an empty PostgreSQL database) when given, and returns
 * its context, still open: the caller closes it.
 */
export async function seedMessages(sizes: MessageSeedSizes, dataDir: string, log = (_: string) => {}, storage?: Storage): Promise<SeededWorld> {
  const ctx = openDataDir(dataDir, { ...SEEDING, storage });
  const { realm, owner } = await benchRealm(ctx);
  const now = Math.floor(Date.now() / 1000);

  const { userIds, streamIds } = await ctx.storage.transaction(async (tx) => {
    const userIds: number[] = [];
    for (let i = 1; i < sizes.users; i++) {
      const user = await tx.users.insert({
        ...owner,
        deliveryEmail: `user${i}@example.com`,
        fullName: `User ${i}`,
        apiKey: `bench${String(i).padStart(27, '0')}`,
        role: 400,
        passwordHash: null,
        canCreateUsers: false,
      });
      userIds.push(user.id);
    }
    const streamIds: number[] = [];
    for (let c = 0; c < sizes.channels; c++) {
      const stream = await tx.streams.insert({
        realmId: realm.id,
        name: `channel ${c}`,
        description: '',
        renderedDescription: '',
        dateCreated: now,
        creatorId: owner.id,
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
      });
      streamIds.push(stream.id);
      const members = [owner.id, ...Array.from({ length: sizes.subscribersPerChannel }, (_, k) => userIds[(c * sizes.subscribersPerChannel + k) % userIds.length]!)];
      for (const userId of new Set(members)) {
        await tx.subscriptions.upsert({
          realmId: realm.id, userId, streamId: stream.id, active: true, color: '#76ce90', isMuted: false, pinToTop: false,
          desktopNotifications: null, audibleNotifications: null, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null,
        });
      }
    }
    return ok({ userIds, streamIds });
  }).then((r) => r._unsafeUnwrap());

  const subscribers = new Map<number, number[]>();
  for (const [c, streamId] of streamIds.entries()) {
    subscribers.set(streamId, [...new Set([owner.id, ...Array.from({ length: sizes.subscribersPerChannel }, (_, k) => userIds[(c * sizes.subscribersPerChannel + k) % userIds.length]!)])]);
  }
  const total = sizes.messages;
  for (let start = 0; start < total; start += BATCH) {
    await ctx.storage.transaction(async (tx) => {
      for (let i = start; i < Math.min(total, start + BATCH); i++) {
        const streamId = streamIds[i % streamIds.length]!;
        const members = subscribers.get(streamId)!;
        const senderId = members[i % members.length]!;
        const topic = `topic ${Math.floor(i / streamIds.length) % sizes.topicsPerChannel}`;
        await tx.messages.insert(
          {
            realmId: realm.id, senderId, type: 'stream', streamId, topic, dmKey: null,
            content: `message ${i} about things`, renderedContent: `<p>message ${i} about things</p>`,
            dateSent: now - (total - i), sendingClient: 'bench', lastEditTime: null, lastMovedTime: null, editHistory: [],
            hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false,
          },
          // The owner has read all but every tenth message; everyone else's copy is unread.
          members.map((userId) => ({ userId, flags: userId === senderId || (userId === owner.id && i % 10 !== 0) ? FLAG_BITS.read : 0 })),
        );
      }
      return ok(undefined);
    });
    if (start % 100_000 === 0) log(`  seeded ${start} / ${total} messages`);
  }
  return { ctx, realm, owner, streamIds };
}
