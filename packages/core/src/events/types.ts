import type { ApiEvent } from './union.js';

export type { ApiEvent } from './union.js';

/** An event as a client receives it from its queue: the union, each with its queue `id`. */
export type QueuedEvent = ApiEvent & { id: number };

/** The client capabilities the reference defines (SHAPES.md 2.2); unknown keys are ignored. */
export const CLIENT_CAPABILITIES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'archived_channels',
  'empty_topic_name',
  'simplified_presence_events',
  'individual_emoji_changes',
] as const;

/** A `client_capabilities` flag a client may register with: one of CLIENT_CAPABILITIES. */
export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];

/** How a queue was registered: what it accepts and how its events are shaped. */
export interface QueueOptions {
  /** Event types the queue accepts; null accepts every type. */
  eventTypes: ReadonlySet<string> | null;
  /** `[operator, operand]` pairs; they filter `message` events only. */
  narrow: ReadonlyArray<readonly [string, string]>;
  capabilities: ReadonlySet<ClientCapability>;
  clientGravatar: boolean;
  applyMarkdown: boolean;
  allPublicStreams: boolean;
  /** Seconds without a connected poll after which the queue expires. */
  idleTimeoutSecs: number;
}

/** `Omit` over each member of a union (an event body without its `type`, for example). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
