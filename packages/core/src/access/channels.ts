/**
 * Looking channels up for a user, with the reference's errors: a channel the user may not see
 * gives the same error as one that does not exist. Also the audiences of channel events.
 */
import { err, ok, type Result } from 'neverthrow';
import { type ApiError, badRequest } from '../errors.js';
import type { Stream, Subscription, Tx, User } from '../storage/types.js';
import { withUserGroupIds } from './group-membership.js';
import { canAdministerChannel, canSeeSubscribers, hasContentAccess, hasMetadataAccess } from './channel-rules.js';

export const invalidChannelId = () => badRequest('Invalid channel ID');
export const cannotAdministerChannel = () => badRequest('You do not have permission to administer this channel.');

/** A channel as one user reaches it: their subscription row, and whether it is active. */
export interface ChannelAccess {
  stream: Stream;
  /** The user's row, active or not. */
  subscription: Subscription | undefined;
  subscribed: boolean;
}

export interface AccessOptions {
  /** Metadata access is enough (administrators see every channel's settings). Default: content access. */
  metadataOnly?: boolean;
  /** Archived channels are found too. Default: they are refused like unknown ones. */
  allowArchived?: boolean;
}

async function reach(tx: Tx, user: User, stream: Stream | undefined, options: AccessOptions): Promise<ChannelAccess | undefined> {
  if (!stream || (stream.isArchived && !options.allowArchived)) return undefined;
  const subscription = await tx.subscriptions.get(user.realmId, user.id, stream.id);
  const subscribed = subscription?.active === true;
  const allowed = options.metadataOnly ? hasMetadataAccess(user, stream, subscribed) : hasContentAccess(user, stream, subscribed);
  return allowed ? { stream, subscription, subscribed } : undefined;
}

/** access_stream_by_id: "Invalid channel ID" for unknown, other realms', inaccessible (and archived) channels. */
export async function accessStreamById(tx: Tx, user: User, streamId: number, options: AccessOptions = {}): Promise<Result<ChannelAccess, ApiError>> {
  const found = await reach(tx, user, await tx.streams.byId(user.realmId, streamId), options);
  return found ? ok(found) : err(invalidChannelId());
}

/** access_stream_by_name: "Invalid channel name '…'" likewise. */
export async function accessStreamByName(tx: Tx, user: User, name: string, options: AccessOptions = {}): Promise<Result<ChannelAccess, ApiError>> {
  const found = await reach(tx, user, await tx.streams.byName(user.realmId, name.trim()), options);
  return found ? ok(found) : err(badRequest(`Invalid channel name '${name}'`));
}

/**
 * A channel the user is to administer (rename, describe, archive): administrators and the
 * channel's administrators may; a user who can read it but not administer it is told so; for
 * anyone else it does not exist. Archived channels are included.
 */
export async function accessStreamForAdministration(tx: Tx, user: User, streamId: number): Promise<Result<ChannelAccess, ApiError>> {
  const stream = await tx.streams.byId(user.realmId, streamId);
  if (!stream) return err(invalidChannelId());
  const subscription = await tx.subscriptions.get(user.realmId, user.id, stream.id);
  const subscribed = subscription?.active === true;
  if (canAdministerChannel(user, stream)) return ok({ stream, subscription, subscribed });
  return err(hasContentAccess(user, stream, subscribed) ? cannotAdministerChannel() : invalidChannelId());
}

/**
 * The realm's active users: the population every channel audience is taken from. Each carries
 * its user-defined groups, which channel group settings may name.
 */
export async function activeUsers(tx: Tx, realmId: number): Promise<User[]> {
  return withUserGroupIds(tx, realmId, (await tx.users.list(realmId)).filter((u) => u.isActive));
}

/** Users who may see that the channel exists: the audience of stream events. */
export function metadataAudience(users: readonly User[], stream: Stream, subscribers: ReadonlySet<number>): number[] {
  return users.filter((u) => hasMetadataAccess(u, stream, subscribers.has(u.id))).map((u) => u.id);
}

/** Users who may see the channel's subscribers: the audience of peer_add and peer_remove. */
export function subscriberAudience(users: readonly User[], stream: Stream, subscribers: ReadonlySet<number>): number[] {
  return users.filter((u) => canSeeSubscribers(u, stream, subscribers.has(u.id))).map((u) => u.id);
}
