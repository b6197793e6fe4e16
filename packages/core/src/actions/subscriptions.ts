import { err, ok, type Result } from 'neverthrow';
import { checkChannelCreation } from '../access/channel-creation.js';
import {
  canAddSubscribers,
  canRemoveSubscribers,
  hasContentAccess,
  hasMetadataAccess,
} from '../access/channel-rules.js';
import { accessStreamById, activeUsers } from '../access/channels.js';
import { controlsUser, resolvePrincipals } from '../access/principals.js';
import { isGuest } from '../access/roles.js';
import { type ApiError, badRequest, insufficientPermission, notAllowedForGuests, streamDoesNotExist } from '../errors.js';
import { NOTIFICATION_FIELDS, type NotificationSetting } from '../format/channel.js';
import { apiEmail } from '../format/user.js';
import { type Actor, userOperation } from '../operation.js';
import { SubscribeParams, SubscriptionPropertiesParams, UnsubscribeParams } from '../schemas/channels.js';
import type { Stream, SubscriptionPatch, Tx } from '../storage/types.js';
import { announceDefaultStreams, announceSubscriptionUpdate } from '../channels/events.js';
import { type ChannelGroupValues, parseCreationGroupSettings } from '../channels/group-settings.js';
import { checkChannelName, creationSpec, insertChannel } from '../channels/records.js';
import { checkFolder, parseRetentionDays } from '../channels/properties.js';
import { bulkAddSubscriptions, bulkRemoveSubscriptions, type Membership } from '../channels/subscription-records.js';
import { transactionAs } from '../transaction.js';
import { announceNewChannels } from '../system-bots/new-channels.js';


/** check_color: `#` and three to six hex digits. */
const HEX_COLOR = /^#[0-9a-fA-F]{3,6}$/;

/** `{user_id: [channel names]}` with string keys (FL 289). */
function byUser(memberships: readonly Membership[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { user, stream } of memberships) (out[String(user.id)] ??= []).push(stream.name);
  return out;
}

/** Whether `principals` names anyone but the requester (is_subscribing_other_users). */
function namesOthers(actor: Actor, principals: readonly number[] | readonly string[]): boolean {
  const self = apiEmail(actor.realm, actor.user).toLowerCase();
  return principals.some((p) => (typeof p === 'number' ? p !== actor.user.id : p.trim().toLowerCase() !== self));
}

/**
 * POST /users/me/subscriptions (SHAPES.md 6.8): subscribes the requester, or the `principals`,
 * to channels by name, creating the missing ones with the creation settings. Channels the
 * requester may not join are an error, or listed in `unauthorized` when
 * authorization_errors_fatal is false. Guests may not use it.
 */
export const doSubscribe = userOperation(SubscribeParams, async (ctx, requester: Actor, params) => {
  if (isGuest(requester.user)) return err(notAllowedForGuests());
  const requests = new Map<string, { name: string; description: string; color?: string }>();
  for (const entry of params.subscriptions) {
    if (entry.color !== undefined && !HEX_COLOR.test(entry.color)) return err(badRequest('add.color is not a valid hex color code'));
    const name = checkChannelName(entry.name.trim());
    if (name.isErr()) return err(name.error);
    const key = name.value.toLowerCase();
    if (!requests.has(key)) requests.set(key, { name: name.value, description: entry.description ?? '', color: entry.color });
  }

  const retentionDays = parseRetentionDays(params.message_retention_days ?? 'realm_default');
  if (retentionDays.isErr()) return err(retentionDays.error);

  return transactionAs(ctx, requester, async (tx, actor) => {
    const { realm, user } = actor;
    if (isGuest(user)) return err(notAllowedForGuests());
    const folderId = await checkFolder(tx, realm, params.folder_id ?? null);
    if (folderId.isErr()) return err(folderId.error);
    const existing: Stream[] = [];
    const missing: { name: string; description: string }[] = [];
    for (const request of requests.values()) {
      const stream = await tx.streams.byName(realm.id, request.name);
      if (stream) existing.push(stream);
      else missing.push(request);
    }
    let groupSettings: ChannelGroupValues = {};
    if (missing.length > 0) {
      // The reference validates the group settings before the creation permissions.
      const historyPublic = params.invite_only ? (params.history_public_to_subscribers ?? false) : true;
      const parsed = await parseCreationGroupSettings(tx, actor, params, historyPublic);
      if (parsed.isErr()) return err(parsed.error);
      groupSettings = parsed.value;
      const allowed = checkChannelCreation(actor, params, retentionDays.value);
      if (allowed.isErr()) return err(allowed.error);
    }
    const audience = await activeUsers(tx, realm.id);
    const created: Stream[] = [];
    for (const request of missing) {
      created.push(
        await insertChannel(
          ctx,
          tx,
          realm,
          user,
          creationSpec(request.name, request.description, params, { messageRetentionDays: retentionDays.value, folderId: folderId.value, groupSettings }),
          audience,
        ),
      );
    }

    const authorized: Stream[] = [];
    const unauthorized: Stream[] = [];
    for (const stream of existing) {
      const row = await tx.subscriptions.get(realm.id, user.id, stream.id);
      (hasContentAccess(user, stream, row?.active === true) ? authorized : unauthorized).push(stream);
    }
    if (unauthorized.length > 0 && params.authorization_errors_fatal) {
      return err(badRequest(`Unable to access channel (${unauthorized[0]!.name}).`));
    }
    const principals = params.principals ?? [];
    const others = principals.length > 0 && namesOthers(actor, principals);
    if (others && authorized.some((stream) => !canAddSubscribers(user, realm, stream))) return err(insufficientPermission());
    const subscribers = others ? await resolvePrincipals(tx, realm, user, principals) : ok([user]);
    if (subscribers.isErr()) return err(subscribers.error);

    if (params.is_default_stream && created.length > 0) {
      for (const stream of created) await tx.defaultStreams.add(realm.id, stream.id);
      await announceDefaultStreams(ctx, tx, realm);
    }
    const streams = [...authorized, ...created];
    const colors = new Map<number, string>();
    for (const stream of streams) {
      const color = requests.get(stream.name.toLowerCase())?.color;
      if (color !== undefined) colors.set(stream.id, color);
    }
    const result = await bulkAddSubscriptions(ctx, tx, realm, streams, subscribers.value, { colors });
    if (params.announce) {
      const announced = await announceNewChannels(ctx, tx, realm, user, created);
      if (announced.isErr()) return err(announced.error);
    }
    return ok({
      subscribed: byUser(result.subscribed),
      already_subscribed: byUser(result.alreadySubscribed),
      ...(params.authorization_errors_fatal ? {} : { unauthorized: unauthorized.map((s) => s.name) }),
    });
  });
});

/**
 * DELETE /users/me/subscriptions (SHAPES.md 6.9): unsubscribes the requester, or the
 * `principals`, from channels by name. A channel the requester may not see does not exist for
 * them. Removing anyone but oneself or one's own bots needs can_remove_subscribers_group.
 */
export const doUnsubscribe = userOperation(UnsubscribeParams, async (ctx, requester: Actor, params) =>
  transactionAs(ctx, requester, async (tx, actor) => {
    const { realm, user } = actor;
    const principals = params.principals ?? [];
    const targets = principals.length > 0 ? await resolvePrincipals(tx, realm, user, principals) : ok([user]);
    if (targets.isErr()) return err(targets.error);
    const streams: Stream[] = [];
    const subscribed = new Map<number, boolean>();
    for (const raw of params.subscriptions) {
      const name = raw.trim();
      const stream = await tx.streams.byName(realm.id, name);
      const row = stream && (await tx.subscriptions.get(realm.id, user.id, stream.id));
      if (!stream || !hasMetadataAccess(user, stream, row?.active === true)) return err(streamDoesNotExist(name));
      if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
      subscribed.set(stream.id, row?.active === true);
    }
    const others = targets.value.some((target) => !controlsUser(user, target));
    if (others && streams.some((s) => !canRemoveSubscribers(user, s, subscribed.get(s.id)!))) return err(insufficientPermission());
    const result = await bulkRemoveSubscriptions(ctx, tx, realm, streams, targets.value);
    return ok({ removed: result.removed.map((m) => m.stream.name), not_removed: result.notRemoved.map((m) => m.stream.name) });
  }),
);

const BOOLEAN_PROPERTIES = ['in_home_view', 'is_muted', 'pin_to_top', ...(Object.keys(NOTIFICATION_FIELDS) as NotificationSetting[])];

/** SubscriptionPropertyChangeRequest's checks: a known property and a value of its type. */
function checkChange(property: string, value: boolean | string): Result<SubscriptionPatch, ApiError> {
  if (property === 'color') {
    if (typeof value !== 'string') return err(badRequest('color is not a string'));
    return HEX_COLOR.test(value) ? ok({ color: value }) : err(badRequest('color is not a valid hex color code'));
  }
  if (!BOOLEAN_PROPERTIES.includes(property)) return err(badRequest(`Unknown subscription property: ${property}`));
  if (typeof value !== 'boolean') return err(badRequest(`${property} is not a boolean`));
  if (property === 'in_home_view') return ok({ isMuted: !value });
  if (property === 'is_muted') return ok({ isMuted: value });
  if (property === 'pin_to_top') return ok({ pinToTop: value });
  return ok({ [NOTIFICATION_FIELDS[property as NotificationSetting]]: value });
}

async function applyChange(tx: Tx, actor: Actor, streamId: number, patch: SubscriptionPatch): Promise<Result<void, ApiError>> {
  const access = await accessStreamById(tx, actor.user, streamId, { allowArchived: true });
  if (access.isErr()) return err(access.error);
  if (!access.value.subscribed) return err(badRequest(`Not subscribed to channel ID ${streamId}`));
  await tx.subscriptions.update(actor.realm.id, actor.user.id, streamId, patch);
  return ok(undefined);
}

/**
 * POST /users/me/subscriptions/properties: the requester's personal settings of channels they
 * are subscribed to, all or nothing. Muting sends the legacy in_home_view update, then is_muted.
 */
export const doUpdateSubscriptionProperties = userOperation(SubscriptionPropertiesParams, async (ctx, requester: Actor, params) => {
  const changes: { streamId: number; property: string; value: boolean | string; patch: SubscriptionPatch }[] = [];
  for (const { stream_id, property, value } of params.subscription_data) {
    const patch = checkChange(property, value);
    if (patch.isErr()) return err(patch.error);
    changes.push({ streamId: stream_id, property, value, patch: patch.value });
  }
  return transactionAs(ctx, requester, async (tx, actor) => {
    for (const change of changes) {
      const applied = await applyChange(tx, actor, change.streamId, change.patch);
      if (applied.isErr()) return err(applied.error);
      const announce = (property: string, value: unknown) =>
        announceSubscriptionUpdate(ctx, tx, actor.realm, actor.user, change.streamId, property, value);
      if (change.patch.isMuted !== undefined) {
        announce('in_home_view', !change.patch.isMuted);
        announce('is_muted', change.patch.isMuted);
      } else announce(change.property, change.value);
    }
    return ok({});
  });
});
