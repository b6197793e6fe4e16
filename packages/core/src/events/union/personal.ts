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

export type DraftRecord = ReturnType<typeof formatDraft>;
export type DraftsEvent =
  | { type: 'drafts'; op: 'add'; drafts: DraftRecord[] }
  | { type: 'drafts'; op: 'update'; draft: DraftRecord }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

export type ScheduledMessageRecord = ReturnType<typeof formatScheduledMessage>;
export type ScheduledMessagesEvent =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: ScheduledMessageRecord[] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: ScheduledMessageRecord }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };

export type ReminderRecord = ReturnType<typeof formatReminder>;
export type RemindersEvent = { type: 'reminders'; op: 'add'; reminders: ReminderRecord[] } | { type: 'reminders'; op: 'remove'; reminder_id: number };

export type SavedSnippetRecord = ReturnType<typeof formatSavedSnippet>;
export type SavedSnippetsEvent =
  | { type: 'saved_snippets'; op: 'add' | 'update'; saved_snippet: SavedSnippetRecord }
  | { type: 'saved_snippets'; op: 'remove'; saved_snippet_id: number };

export type NavigationViewRecord = ReturnType<typeof formatNavigationView>;
export type NavigationViewEvent =
  | { type: 'navigation_view'; op: 'add'; navigation_view: NavigationViewRecord }
  | { type: 'navigation_view'; op: 'update'; fragment: string; data: { is_pinned?: boolean; name?: string } }
  | { type: 'navigation_view'; op: 'remove'; fragment: string };

export interface AlertWordsEvent {
  type: 'alert_words';
  alert_words: string[];
}

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
export type DeviceEvent =
  | { type: 'device'; op: 'add' | 'remove'; device_id: number }
  | ({ type: 'device'; op: 'update'; device_id: number } & DeviceUpdateFields);

export type { AttachmentRecord } from '../../uploads/attachment-record.js';
import type { AttachmentRecord } from '../../uploads/attachment-record.js';
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

export interface HasVideoProviderTokenEvent {
  type: 'has_videoprovider_token';
  value: boolean;
}
