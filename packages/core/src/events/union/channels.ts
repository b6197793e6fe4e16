/** Events about channels, subscriptions and channel folders (SHAPES.md 4.15, 4.16). */

import type { formatStream, formatSubscription } from '../../format/channel.js';
import type { formatChannelFolder } from '../../format/channel-folder.js';

/** A channel object (`formatStream`); a subscription object adds the user's own fields. */
export type ChannelRecord = ReturnType<typeof formatStream>;
/** A subscription object (`formatSubscription`): the channel plus the user's own settings for it. */
export type SubscriptionRecord = ReturnType<typeof formatSubscription>;

/** A channel created, deleted or changed; sent to the users who can see it. */
export type StreamEvent =
  | { type: 'stream'; op: 'create'; streams: ChannelRecord[] }
  | { type: 'stream'; op: 'delete'; streams: Array<{ stream_id: number }>; stream_ids: number[] }
  /** One property; `name` is the channel's name before the change; some properties add fields. */
  | ({ type: 'stream'; op: 'update'; stream_id: number; name: string; property: string; value: unknown } & Record<string, unknown>);

/** The user's own subscriptions changed (add, remove, update), or others' (peer_add, peer_remove). */
export type SubscriptionEvent =
  | { type: 'subscription'; op: 'add'; subscriptions: SubscriptionRecord[] }
  | { type: 'subscription'; op: 'remove'; subscriptions: Array<{ name: string; stream_id: number }> }
  | { type: 'subscription'; op: 'update'; stream_id: number; property: string; value: unknown }
  | { type: 'subscription'; op: 'peer_add' | 'peer_remove'; stream_ids: number[]; user_ids: number[] };

/** The realm's default channels after a change, as IDs; sent to administrators. */
export interface DefaultStreamsEvent {
  type: 'default_streams';
  default_streams: number[];
}

/** A channel folder created, changed or reordered. */
export type ChannelFolderEvent =
  | { type: 'channel_folder'; op: 'add'; channel_folder: ReturnType<typeof formatChannelFolder> }
  | { type: 'channel_folder'; op: 'update'; channel_folder_id: number; data: { name?: string; description?: string; rendered_description?: string; is_archived?: boolean } }
  | { type: 'channel_folder'; op: 'reorder'; order: number[] };
