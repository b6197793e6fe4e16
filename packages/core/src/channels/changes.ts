/**
 * Changes to a channel's settings and what each announces: privacy (with stream/create and
 * stream/delete for the users who gain or lose sight of the channel), name, description,
 * archiving and unarchiving. Runs inside the caller's transaction.
 */
import { err, ok, type Result } from 'neverthrow';
import { activeUsers, metadataAudience, subscriberAudience } from '../access/channels.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { renderChannelDescription } from '../format/channel.js';
import type { Realm, Stream, Tx, User } from '../storage/types.js';
import { announceDefaultStreams, announcePeers, announceStreamCreated, announceStreamsDeleted, announceStreamUpdate } from './events.js';
import { normalizeDescription } from './records.js';

export interface Privacy {
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic: boolean;
}

/**
 * do_change_stream_permission. Users who can see the channel before and after get
 * stream/update invite_only (with the two other privacy fields); users who can see it only now
 * get stream/create and peer_add of its subscribers; users who can no longer see it get
 * stream/delete. (The reference's create carries the current subscriber count and then the
 * peer_add counts every subscriber again; here the create says 0.)
 */
export async function changePrivacy(ctx: Ctx, tx: Tx, realm: Realm, before: Stream, privacy: Privacy): Promise<Stream> {
  const after: Stream = { ...before, ...privacy };
  if (
    before.inviteOnly === after.inviteOnly &&
    before.historyPublicToSubscribers === after.historyPublicToSubscribers &&
    before.isWebPublic === after.isWebPublic
  ) {
    return before;
  }
  await tx.streams.update(realm.id, before.id, privacy);
  const users = await activeUsers(tx, realm.id);
  const subscriberIds = await tx.subscriptions.activeSubscriberIds(realm.id, before.id);
  const subscribers = new Set(subscriberIds);
  const sawBefore = new Set(metadataAudience(users, before, subscribers));
  const seesAfter = metadataAudience(users, after, subscribers);
  const kept = seesAfter.filter((id) => sawBefore.has(id));
  announceStreamUpdate(ctx, tx, realm, after, kept, 'invite_only', after.inviteOnly, {
    history_public_to_subscribers: after.historyPublicToSubscribers,
    is_web_public: after.isWebPublic,
  });
  announceVisibilityChange(ctx, tx, realm, after, { users, subscriberIds, sawBefore, seesAfter });
  return after;
}

/** Who could see a channel before a change and who can after, with what the audiences were computed from. */
export interface VisibilityChange {
  users: readonly User[];
  subscriberIds: readonly number[];
  sawBefore: ReadonlySet<number>;
  seesAfter: readonly number[];
}

/**
 * After a change of who may see the channel: users who see it only now get stream/create and
 * peer_add of its subscribers; users who no longer see it get stream/delete. The caller
 * announces the change itself to those who saw the channel before and still do.
 */
export function announceVisibilityChange(ctx: Ctx, tx: Tx, realm: Realm, after: Stream, change: VisibilityChange): void {
  const { users, subscriberIds, sawBefore, seesAfter } = change;
  const gained = seesAfter.filter((id) => !sawBefore.has(id));
  const lost = [...sawBefore].filter((id) => !seesAfter.includes(id));
  // Those who may see the subscribers learn the channel with no subscribers, then every
  // subscriber by peer_add: the count and the list they keep then agree, whether or not they
  // track the list.
  const mayKnowSubscribers = new Set(subscriberAudience(users, after, new Set(subscriberIds)));
  const toldSubscribers = subscriberIds.length > 0 ? gained.filter((id) => mayKnowSubscribers.has(id)) : [];
  announceStreamCreated(ctx, tx, realm, after, 0, toldSubscribers);
  announceStreamCreated(ctx, tx, realm, after, subscriberIds.length, gained.filter((id) => !toldSubscribers.includes(id)));
  announcePeers(ctx, tx, realm, 'peer_add', [{ streamId: after.id, userIds: subscriberIds, audience: toldSubscribers }]);
  if (lost.length > 0) announceStreamsDeleted(ctx, tx, realm, [after.id], lost);
}

/** do_change_stream_description: newlines become spaces; the event carries the rendered HTML. */
export async function changeDescription(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream, description: string): Promise<Stream> {
  const value = normalizeDescription(description);
  const after: Stream = { ...stream, description: value, renderedDescription: renderChannelDescription(realm, value, new Date(ctx.clock.now())) };
  await tx.streams.update(realm.id, stream.id, { description: after.description, renderedDescription: after.renderedDescription });
  const audience = metadataAudience(await activeUsers(tx, realm.id), after, new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id)));
  announceStreamUpdate(ctx, tx, realm, stream, audience, 'description', value, { rendered_description: after.renderedDescription });
  return after;
}

/** do_rename_stream: the event's `name` is the old name. The caller checked the new one. */
export async function renameChannel(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream, name: string): Promise<Stream> {
  await tx.streams.update(realm.id, stream.id, { name });
  const audience = metadataAudience(await activeUsers(tx, realm.id), stream, new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id)));
  announceStreamUpdate(ctx, tx, realm, stream, audience, 'name', name);
  return { ...stream, name };
}

/**
 * do_deactivate_stream: the channel is archived (subscriptions stay) and stops being a default
 * channel. Clients with archived_channels get stream/update is_archived, the others stream/delete.
 */
export async function archiveChannel(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream): Promise<Result<Stream, ApiError>> {
  if (stream.isArchived) return err(badRequest('Channel is already deactivated'));
  const audience = metadataAudience(await activeUsers(tx, realm.id), stream, new Set(await tx.subscriptions.activeSubscriberIds(realm.id, stream.id)));
  await tx.streams.update(realm.id, stream.id, { isArchived: true });
  if ((await tx.defaultStreams.list(realm.id)).includes(stream.id)) {
    await tx.defaultStreams.remove(realm.id, stream.id);
    await announceDefaultStreams(ctx, tx, realm);
  }
  announceStreamUpdate(ctx, tx, realm, stream, audience, 'is_archived', true);
  announceStreamsDeleted(ctx, tx, realm, [stream.id], audience, { forArchiving: true });
  return ok({ ...stream, isArchived: true });
}

/** do_unarchive_stream: the reverse; clients without archived_channels get stream/create. */
export async function unarchiveChannel(ctx: Ctx, tx: Tx, realm: Realm, stream: Stream): Promise<Result<Stream, ApiError>> {
  if (!stream.isArchived) return err(badRequest('Channel is not currently deactivated'));
  const subscriberIds = await tx.subscriptions.activeSubscriberIds(realm.id, stream.id);
  if (stream.inviteOnly && subscriberIds.length === 0) return err(badRequest('Channel is private and have no subscribers'));
  const after: Stream = { ...stream, isArchived: false, isWebPublic: stream.inviteOnly ? false : stream.isWebPublic };
  await tx.streams.update(realm.id, stream.id, { isArchived: false, isWebPublic: after.isWebPublic });
  const audience = metadataAudience(await activeUsers(tx, realm.id), after, new Set(subscriberIds));
  announceStreamUpdate(ctx, tx, realm, after, audience, 'is_archived', false);
  announceStreamCreated(ctx, tx, realm, after, subscriberIds.length, audience, { forUnarchiving: true });
  return ok(after);
}
