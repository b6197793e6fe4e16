/**
 * The event union: every event a queue can deliver, one interface per type (and op), with the
 * exact fields the API sends. Events are plain data: they cross process boundaries as JSON.
 * Per-queue tailoring (client capabilities, client_gravatar, apply_markdown…) is data carried
 * by the published event and applied at delivery by the rules of events/rules.ts.
 */
import type { ChannelFolderEvent, DefaultStreamsEvent, StreamEvent, SubscriptionEvent } from './union/channels.js';
import type {
  DeleteMessageEvent,
  MessageEvent,
  MutedTopicsEvent,
  ReactionEvent,
  SubmessageEvent,
  TypingEditMessageEvent,
  TypingEvent,
  UpdateMessageEvent,
  UpdateMessageFlagsEvent,
  UserTopicEvent,
} from './union/messages.js';
import type {
  AlertWordsEvent,
  AttachmentEvent,
  DeviceEvent,
  DraftsEvent,
  HasVideoProviderTokenEvent,
  MutedUsersEvent,
  NavigationViewEvent,
  RemindersEvent,
  SavedSnippetsEvent,
  ScheduledMessagesEvent,
  UserSettingsEvent,
} from './union/personal.js';
import type {
  HeartbeatEvent,
  RealmDomainsEvent,
  RealmEmojiEvent,
  RealmLinkifiersEvent,
  RealmPlaygroundsEvent,
  RealmUpdateDictEvent,
  RealmUserSettingsDefaultsEvent,
} from './union/realm.js';
import type {
  CustomProfileFieldsEvent,
  InvitesChangedEvent,
  PresenceEvent,
  RealmBotEvent,
  RealmUserEvent,
  UserGroupEvent,
  UserStatusEvent,
} from './union/users.js';

export type * from './union/channels.js';
export type * from './union/messages.js';
export type * from './union/personal.js';
export type * from './union/realm.js';
export type * from './union/users.js';

/** An event as actions publish it and queues deliver it (queues add `id`). Discriminated by `type`, then `op`. */
export type ApiEvent =
  | MessageEvent
  | UpdateMessageEvent
  | DeleteMessageEvent
  | UpdateMessageFlagsEvent
  | ReactionEvent
  | SubmessageEvent
  | TypingEvent
  | TypingEditMessageEvent
  | UserTopicEvent
  | MutedTopicsEvent
  | DraftsEvent
  | ScheduledMessagesEvent
  | RemindersEvent
  | SavedSnippetsEvent
  | NavigationViewEvent
  | AlertWordsEvent
  | MutedUsersEvent
  | DeviceEvent
  | AttachmentEvent
  | UserSettingsEvent
  | HasVideoProviderTokenEvent
  | RealmUserEvent
  | RealmBotEvent
  | UserStatusEvent
  | PresenceEvent
  | UserGroupEvent
  | CustomProfileFieldsEvent
  | InvitesChangedEvent
  | StreamEvent
  | SubscriptionEvent
  | DefaultStreamsEvent
  | ChannelFolderEvent
  | RealmUpdateDictEvent
  | RealmUserSettingsDefaultsEvent
  | RealmDomainsEvent
  | RealmEmojiEvent
  | RealmLinkifiersEvent
  | RealmPlaygroundsEvent
  | HeartbeatEvent;

/** The `type` of every event. */
export type EventType = ApiEvent['type'];

/** The events of one type. */
export type EventOf<T extends EventType> = Extract<ApiEvent, { type: T }>;

/** Every event type, once; the compiler checks the list against the union both ways. */
export const EVENT_TYPES = [
  'alert_words',
  'attachment',
  'channel_folder',
  'custom_profile_fields',
  'default_streams',
  'delete_message',
  'device',
  'drafts',
  'has_videoprovider_token',
  'heartbeat',
  'invites_changed',
  'message',
  'muted_topics',
  'muted_users',
  'navigation_view',
  'presence',
  'reaction',
  'realm',
  'realm_bot',
  'realm_domains',
  'realm_emoji',
  'realm_linkifiers',
  'realm_playgrounds',
  'realm_user',
  'realm_user_settings_defaults',
  'reminders',
  'saved_snippets',
  'scheduled_messages',
  'stream',
  'submessage',
  'subscription',
  'typing',
  'typing_edit_message',
  'update_message',
  'update_message_flags',
  'user_group',
  'user_settings',
  'user_status',
  'user_topic',
] as const satisfies readonly EventType[];

// Fails to compile when a type of the union is missing from EVENT_TYPES.
type Missing = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
const _everyTypeListed: [Missing] extends [never] ? true : Missing = true;
void _everyTypeListed;
