import { err, ok, type Result } from 'neverthrow';
import { type ChannelGroupSetting, defaultChannelGroups } from '../access/channel-rules.js';
import { metadataAudience } from '../access/channels.js';
import { unixSeconds } from '../clock.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { renderChannelDescription } from '../format/channel.js';
import { MAX_CHANNEL_NAME_LENGTH } from '../schemas/channels.js';
import type { Realm, StoredGroupSetting, Stream, TopicsPolicy, Tx, User } from '../storage/types.js';
import { exceedsCodePoints } from '../text/length.js';
import { unprintablePosition } from '../text/printable.js';
import { announceStreamCreated } from './events.js';

/** check_stream_name on a stripped name: not empty, at most 60 characters, printable. */
export function checkChannelName(name: string): Result<string, ApiError> {
  if (name.trim() === '') return err(badRequest("Channel name can't be empty."));
  if (exceedsCodePoints(name, MAX_CHANNEL_NAME_LENGTH)) {
    return err(badRequest(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`));
  }
  const position = unprintablePosition(name);
  if (position > 0) return err(badRequest(`Invalid character in channel name, at position ${position}.`));
  return ok(name);
}

/** Descriptions are one line: the reference replaces newlines with spaces. */
export const normalizeDescription = (description: string) => description.replace(/\n/g, ' ');

export interface ChannelSpec {
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  /** For private channels; public channels always share their history. */
  historyPublicToSubscribers?: boolean;
  /** The creation parameters of channel-properties.ts; left out, the reference's defaults. */
  messageRetentionDays?: number | null;
  topicsPolicy?: TopicsPolicy;
  folderId?: number | null;
  defaultPushNotifications?: boolean;
  /** The `can_*_group` settings the request gives; the others take defaultChannelGroups. */
  groupSettings?: Partial<Record<ChannelGroupSetting, StoredGroupSetting>>;
}

/** The creation parameters both channel-creating endpoints take, as their schemas give them. */
export interface CreationParams {
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers?: boolean;
  topics_policy?: TopicsPolicy;
  default_push_notifications?: boolean;
}

/** A channel's spec from the creation parameters and the values the endpoint checked. */
export function creationSpec(
  name: string,
  description: string,
  params: CreationParams,
  checked: Pick<ChannelSpec, 'messageRetentionDays' | 'folderId' | 'groupSettings'>,
): ChannelSpec {
  return {
    name,
    description,
    inviteOnly: params.invite_only,
    isWebPublic: params.is_web_public,
    historyPublicToSubscribers: params.history_public_to_subscribers,
    topicsPolicy: params.topics_policy,
    defaultPushNotifications: params.default_push_notifications,
    ...checked,
  };
}

/**
 * Inserts a channel with the reference's defaults (its creator administers it) and announces
 * it to everyone who may see it. The caller checked the name and the creator's permissions.
 */
export async function insertChannel(ctx: Ctx, tx: Tx, realm: Realm, creator: User | null, spec: ChannelSpec, audience: readonly User[]): Promise<Stream> {
  const description = normalizeDescription(spec.description);
  const stream = await tx.streams.insert({
    realmId: realm.id,
    name: spec.name,
    description,
    renderedDescription: renderChannelDescription(realm, description, new Date(ctx.clock.now())),
    dateCreated: unixSeconds(ctx.clock),
    creatorId: creator?.id ?? null,
    inviteOnly: spec.inviteOnly,
    isWebPublic: spec.isWebPublic,
    historyPublicToSubscribers: spec.inviteOnly ? (spec.historyPublicToSubscribers ?? false) : true,
    isArchived: false,
    messageRetentionDays: spec.messageRetentionDays ?? null,
    firstMessageId: null,
    topicsPolicy: spec.topicsPolicy ?? 'inherit',
    isRecentlyActive: true,
    folderId: spec.folderId ?? null,
    defaultPushNotifications: spec.defaultPushNotifications ?? false,
    groupSettings: { ...defaultChannelGroups(creator?.id ?? null), ...spec.groupSettings },
  });
  announceStreamCreated(ctx, tx, realm, stream, 0, metadataAudience(audience, stream, new Set()));
  return stream;
}
