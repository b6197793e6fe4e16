/**
 * When push notifications go out: after the sending transaction commits, a background job
 * decides who is notified (push/triggers.ts), records each notification (so that reading or
 * deleting the message can take it back) and hands it to the context's notifier. Nothing here
 * runs on the request path, and the notifier's failures and delays are its own.
 */
import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';
import { type ClientDevice, FLAG_BITS, type Message, type PushDeviceToken, type Realm, type Stream, type Subscription, type Tx, type User } from '../storage/types.js';
import { withUserGroupIds } from '../access/group-membership.js';
import { isGuest } from '../access/roles.js';
import { allUsersAccessibleInRealm, inaccessibleUsers } from '../access/user-access.js';
import { callNotifier, inBackground } from './background.js';
import { awayUsers } from './idle.js';
import type { E2eePushDevice, PushNotifier, PushTrigger } from './notifier.js';
import { e2eeMessagePayload, e2eeRemovalPayload, messageAlert, messagePayload, removalPayload, type PushMessageView } from './payload.js';
import { mayBeNotified, type PushCandidate, pushTrigger } from './triggers.js';

/** What the send path already knows about a new message; nothing is read or rendered twice. */
export interface SentForPush {
  realm: Realm;
  message: Message;
  sender: User;
  /** Channel messages. */
  stream?: Stream;
  /** Direct messages: every participant, the sender included. */
  participants: readonly User[];
  /** Every copy's flags, by user. */
  flagsByUser: ReadonlyMap<number, number>;
  mentionedUserIds: ReadonlySet<number>;
  /** The mentioned groups with their recursive members. */
  mentionedGroups: readonly { id: number; name: string; members: readonly number[] }[];
}

/**
 * The send path's one call: notifies the new message's recipients after commit, if a notifier
 * is plugged in. Called before the send changes anyone's topic policy (automatic follows), whose
 * policies it reads here: the reference decides on the topic's state before the message.
 */
export async function schedulePushNotifications(ctx: Ctx, tx: Tx, sent: SentForPush): Promise<void> {
  const notifier = ctx.pushNotifier;
  if (!notifier || sent.flagsByUser.size <= 1) return;
  const policies = new Map<number, number>();
  if (sent.stream) {
    for (const row of await tx.userTopics.forTopic(sent.realm.id, sent.stream.id, sent.message.topic)) policies.set(row.userId, row.visibilityPolicy);
  }
  tx.afterCommit(() => inBackground(ctx, () => notifyRecipients(ctx, notifier, sent, policies)));
}

/**
 * Takes back the notifications of `messageIds` from `userIds`' devices: the messages were read
 * or deleted. Forgets them inside the caller's transaction (so a read and its removal commit
 * together), then tells the notifier after commit; only notifications that were sent and not
 * yet taken back are. Nothing is read without a notifier.
 */
export async function schedulePushRemoval(ctx: Ctx, tx: Tx, realm: Realm, userIds: readonly number[], messageIds: readonly number[]): Promise<void> {
  const notifier = ctx.pushNotifier;
  if (!notifier || userIds.length === 0 || messageIds.length === 0) return;
  const cleared = await tx.push.clearNotified(realm.id, userIds, messageIds);
  if (cleared.size > 0) tx.afterCommit(() => inBackground(ctx, () => withdraw(ctx, notifier, realm, cleared)));
}

/** Message IDs one removal names at most (the reference's MAX_APNS_MESSAGE_IDS). */
const MAX_REMOVED_IDS = 200;

/** The smallest mentioned group through which `userId` was mentioned, when not mentioned personally. */
function mentionedGroupOf(sent: SentForPush, userId: number): { id: number; name: string } | undefined {
  if (sent.mentionedUserIds.has(userId)) return undefined;
  const groups = sent.mentionedGroups.filter((g) => g.members.includes(userId)).sort((a, b) => a.members.length - b.members.length);
  return groups[0] && { id: groups[0].id, name: groups[0].name };
}

/** How an edit differs from a send (the reference's maybe_enqueue_notifications_for_message_update). */
export interface EditNotice {
  /** Who edited: never notified. */
  actingUserId: number;
  /** Each copy's flags before the edit: whoever was already mentioned is not notified again. */
  priorFlags: ReadonlyMap<number, number>;
}

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

/** An edit notifies only of a new mention, and not whoever the channel or a followed topic notified of the message already. */
function editAllows(candidate: PushCandidate, edit: EditNotice, trigger: PushTrigger): boolean {
  if ((edit.priorFlags.get(candidate.user.id) ?? 0) & MENTION_BITS) return false;
  if (trigger === 'stream_push_notify' || trigger === 'followed_topic_push_notify') return false;
  const regardless = pushTrigger({ ...candidate, flags: 0 }, edit.actingUserId, false);
  return regardless !== 'stream_push_notify' && regardless !== 'followed_topic_push_notify';
}

/** Decides, records and hands over the notifications of one message (new, or edited when `edit` is given). */
export async function notifyRecipients(ctx: Ctx, notifier: PushNotifier, sent: SentForPush, policies: ReadonlyMap<number, number>, edit?: EditNotice): Promise<void> {
  const { realm, message, sender, stream } = sent;
  const actingUserId = edit?.actingUserId ?? sender.id;
  const recipientIds = [...sent.flagsByUser.keys()].filter((id) => id !== actingUserId);
  // Muted senders: as in the reference, a muted sender's message is stored already read for
  // whoever muted them (the muted-users work does it in the send path), and a read copy is never
  // notified (markNotified below), so nothing here needs to know who muted whom.
  const { candidates, subscriptions, hidden } = await ctx.storage.read(async (tx) => {
    const away = await awayUsers(ctx, tx, realm, recipientIds);
    const candidates = (await tx.users.list(realm.id, recipientIds))
      .map((user) => ({ user, idle: away.has(user.id) }))
      .filter((candidate) => mayBeNotified(candidate, actingUserId));
    // Subscriptions are read only for the recipients who may be notified at all.
    const subscriptions = new Map<number, Subscription | undefined>();
    if (stream) for (const { user } of candidates) subscriptions.set(user.id, await tx.subscriptions.get(realm.id, user.id, stream.id));
    // A restricted guest may read a channel message from someone they may not access (direct
    // messages grant access): the reference shows that sender as "Unknown user".
    const hidden = new Set<number>();
    if (stream && !allUsersAccessibleInRealm(realm)) {
      const guests = await withUserGroupIds(tx, realm.id, candidates.map((c) => c.user).filter(isGuest));
      for (const guest of guests) if ((await inaccessibleUsers(tx, realm, guest, [sender])).length > 0) hidden.add(guest.id);
    }
    return { candidates, subscriptions, hidden };
  });

  const triggers = new Map<number, PushTrigger>();
  for (const partial of candidates) {
    const subscription = subscriptions.get(partial.user.id);
    const candidate: PushCandidate = {
      ...partial,
      flags: sent.flagsByUser.get(partial.user.id) ?? 0,
      channel: stream ? { subscription: subscription?.active ? subscription : undefined, visibilityPolicy: policies.get(partial.user.id) ?? 0 } : undefined,
    };
    const trigger = pushTrigger(candidate, actingUserId, message.type === 'private');
    if (trigger && (!edit || editAllows(candidate, edit, trigger))) triggers.set(partial.user.id, trigger);
  }
  if (triggers.size === 0) return;

  // Recorded first, as the reference sets active_mobile_push_notification: a copy read meanwhile is not notified.
  const recorded = await ctx.storage.transaction(async (tx) => {
    const notified: number[] = [];
    for (const userId of triggers.keys()) {
      if ((await tx.push.markNotified(realm.id, userId, [message.id])).length > 0) notified.push(userId);
    }
    return ok({ notified, devices: await tx.push.tokensOf(realm.id, notified), e2ee: await tx.push.devicesOf(realm.id, notified) });
  });
  if (recorded.isErr()) return;
  const view: Omit<PushMessageView, 'mentionedGroup'> = { realm, message, sender, stream, participants: sent.participants };
  for (const userId of recorded.value.notified) {
    const forUser = { ...view, mentionedGroup: mentionedGroupOf(sent, userId), senderHidden: hidden.has(userId) };
    const trigger = triggers.get(userId)!;
    callNotifier(ctx, () =>
      notifier.notify({
        realmId: realm.id,
        userId,
        messageId: message.id,
        trigger,
        devices: devicesOf(recorded.value.devices, userId),
        e2eeDevices: e2eeDevicesOf(recorded.value.e2ee, userId),
        data: messagePayload(forUser, userId),
        e2eeData: e2eeMessagePayload(forUser, userId),
        alert: messageAlert(forUser, trigger),
      }),
    );
  }
}

async function withdraw(ctx: Ctx, notifier: PushNotifier, realm: Realm, cleared: ReadonlyMap<number, number[]>): Promise<void> {
  const userIds = [...cleared.keys()];
  const { devices, e2ee } = await ctx.storage.read(async (tx) => ({ devices: await tx.push.tokensOf(realm.id, userIds), e2ee: await tx.push.devicesOf(realm.id, userIds) }));
  for (const [userId, all] of cleared) {
    // The reference sends at most the newest 200 IDs (APNs' 4 KB limit); the older ones are forgotten all the same.
    const ids = all.slice(-MAX_REMOVED_IDS);
    const data = removalPayload(realm, userId, ids);
    const removal = { realmId: realm.id, userId, messageIds: ids, devices: devicesOf(devices, userId), e2eeDevices: e2eeDevicesOf(e2ee, userId), data, e2eeData: e2eeRemovalPayload(realm, userId, ids) };
    callNotifier(ctx, () => notifier.remove(removal));
  }
}

const devicesOf = (devices: readonly PushDeviceToken[], userId: number) => devices.filter((d) => d.userId === userId);

/** The user's devices with a completed E2EE registration. */
export function e2eeDevicesOf(devices: readonly ClientDevice[], userId: number): E2eePushDevice[] {
  return devices.flatMap((d) =>
    d.userId === userId && d.pushTokenId !== null && d.pushKey !== null && d.pushKeyId !== null && d.pushTokenKind !== null
      ? [{ deviceId: d.id, tokenKind: d.pushTokenKind, tokenId: d.pushTokenId, pushKey: d.pushKey, pushKeyId: d.pushKeyId }]
      : [],
  );
}
