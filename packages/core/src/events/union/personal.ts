/**
 * Events about one user's own things, sent to that user's queues only: drafts, scheduled
 * messages, reminders, snippets, navigation views, alert words, muted users, devices,
 * attachments, settings and the video-call token.
 */
import type { formatDraft } from '../../drafts/fields.js';
import type { formatNavigationView } from '../../queries/navigation-views.js';
import type { formatSavedSnippet } from '../../queries/saved-snippets.js';
import type { formatScheduledMessage } from '../../scheduled/fields.js';
import type { formatReminder } from '../../scheduled/reminder-fields.js';

/** A draft as GET /drafts lists it. */
export type DraftRecord = ReturnType<typeof formatDraft>;
/** The user's drafts: added, changed or removed. */
export type DraftsEvent =
  | { type: 'drafts'; op: 'add'; drafts: DraftRecord[] }
  | { type: 'drafts'; op: 'update'; draft: DraftRecord }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

/** A scheduled message as GET /scheduled_messages lists it. */
export type ScheduledMessageRecord = ReturnType<typeof formatScheduledMessage>;
/** The user's scheduled messages: added, changed or removed (sent or deleted). */
export type ScheduledMessagesEvent =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: ScheduledMessageRecord[] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: ScheduledMessageRecord }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };

/** A reminder as GET /reminders lists it. */
export type ReminderRecord = ReturnType<typeof formatReminder>;
/** The user's reminders: added, or removed (delivered or deleted). */
export type RemindersEvent = { type: 'reminders'; op: 'add'; reminders: ReminderRecord[] } | { type: 'reminders'; op: 'remove'; reminder_id: number };

/** A saved snippet as GET /saved_snippets lists it. */
export type SavedSnippetRecord = ReturnType<typeof formatSavedSnippet>;
/** The user's saved snippets: added, changed or removed. */
export type SavedSnippetsEvent =
  | { type: 'saved_snippets'; op: 'add' | 'update'; saved_snippet: SavedSnippetRecord }
  | { type: 'saved_snippets'; op: 'remove'; saved_snippet_id: number };

/** A navigation view as GET /navigation_views lists it. */
export type NavigationViewRecord = ReturnType<typeof formatNavigationView>;
/** The user's navigation views: added, changed (by fragment) or removed. */
export type NavigationViewEvent =
  | { type: 'navigation_view'; op: 'add'; navigation_view: NavigationViewRecord }
  | { type: 'navigation_view'; op: 'update'; fragment: string; data: { is_pinned?: boolean; name?: string } }
  | { type: 'navigation_view'; op: 'remove'; fragment: string };

/** The user's whole list of alert words after a change. */
export interface AlertWordsEvent {
  type: 'alert_words';
  alert_words: string[];
}

/** The whole list of users the user has muted, with when. */
export interface MutedUsersEvent {
  type: 'muted_users';
  muted_users: Array<{ id: number; timestamp: number }>;
}

/** The push-registration fields a `device` update changes; only the changed ones are sent. */
export interface DeviceUpdateFields {
  push_key_id?: number | null;
  push_token_id?: string | null;
  pending_push_token_id?: string | null;
  push_token_last_updated_timestamp?: number | null;
  push_registration_error_code?: string | null;
}
/** One of the user's registered devices added, removed or changed. */
export type DeviceEvent =
  | { type: 'device'; op: 'add' | 'remove'; device_id: number }
  | ({ type: 'device'; op: 'update'; device_id: number } & DeviceUpdateFields);

export type { AttachmentRecord } from '../../uploads/attachment-record.js';
import type { AttachmentRecord } from '../../uploads/attachment-record.js';
/** One of the user's uploads added, changed (now referenced elsewhere) or removed, with the realm's new upload space used. */
export type AttachmentEvent =
  | { type: 'attachment'; op: 'add' | 'update'; attachment: AttachmentRecord; upload_space_used: number }
  | { type: 'attachment'; op: 'remove'; attachment: { id: number }; upload_space_used: number };

/** One personal setting changed; `language_name` comes with default_language. */
export interface UserSettingsEvent {
  type: 'user_settings';
  op: 'update';
  property: string;
  value: unknown;
  language_name?: string;
}

/** Whether the user now holds a token for the realm's video-call provider. */
export interface HasVideoProviderTokenEvent {
  type: 'has_videoprovider_token';
  value: boolean;
}
