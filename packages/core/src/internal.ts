/**
 * `@teamchat/core/internal`: UNSTABLE. Everything `@teamchat/core` exports, plus the helpers
 * this repository's own adapters, CLI, benchmarks and tests reach into (event publishing, the
 * queue registry, message insertion, validation, formatting, markdown and emoji tables, the
 * background jobs one by one, test hooks that wait for background work). None of it is part of
 * the public API: names and signatures here change without notice. An application that needs
 * one of them should ask for it to be made public instead.
 *
 * @module
 */
export * from './index.js';

// Storage helpers beside the contract.
export { defaultBotProfile, directMentionMarkup } from './storage/types.js';

// Errors: the constructors of every specific failure.
export * from './errors.js';

// Operations: the builders that give an operation its call convention.
export { publicOperation, spectatorOperation, userOperation } from './operation.js';
export { validateInput, varName } from './schemas/validate.js';

// Events: publishing, queues and the register snapshot.
export { publishOnCommit } from './events/publish.js';
export { badEventQueueId, QueueRegistry, type QueueSettings, type QueueStats } from './events/queues.js';
export type { EventQueue } from './events/queue.js';
export type { QueueOptions } from './events/types.js';
export type { StateSection } from './state/sections.js';
export { STATE_SECTIONS } from './state/all.js';

// Messages and system bots.
export { insertMessage, type SentMessage } from './messages/insert.js';
export { NOTIFICATION_BOT_EMAIL, NOTIFICATION_BOT_NAME, notificationBot } from './system-bots/notification-bot.js';
export { type Notice, type NoticeAddress, sendNotificationBotMessage, sendNotificationBotMessageNow } from './system-bots/send.js';
export { widgetFromContent, type WidgetContent } from './widgets/content.js';
export { DELETE_TOPIC_BATCH_SIZE } from './actions/delete-topic.js';
export { REPORT_DESCRIPTION_MAX, REPORT_TYPES, type ReportType } from './schemas/message-report.js';
export { SUBMESSAGE_CONTENT_MAX, SUBMESSAGE_TYPE_MAX } from './schemas/submessages.js';
export * from './markdown/index.js';
export * from './emoji/index.js';
export { serverEmojiDataFile, serverEmojiDataUrl } from './emoji/server-data.js';
export { detectImageType, MAX_EMOJI_FILE_SIZE_MIB } from './emoji/image.js';

// Formatting.
export { apiEmail, formatUser } from './format/user.js';
export { extendedCopy, serializeOnce, toJson, withSharedParts } from './format/json.js';
export { isoTimestamp, unixSeconds } from './clock.js';

// Access rules and settings tables.
export { hasRealmPermission } from './access/realm-rules.js';
export { groupSettingForApi, systemGroupId } from './access/system-groups.js';
export { checkDirectMessagePermission } from './access/direct-message-rules.js';
export * from './settings/realm-settings.js';
export { CHANNEL_GROUP_PERMISSIONS, type GroupPermissionConfig, REALM_GROUP_PERMISSIONS } from './settings/realm-group-permissions.js';
export {
  type ApiGroupSettingValue,
  canonicalGroupSetting,
  type GroupDirectory,
  groupSettingChanges,
  resolveGroupSetting,
  sameGroupSetting,
} from './schemas/group-setting.js';
export { DEFAULT_EXTERNAL_ACCOUNTS, FIELD_TYPES } from './profile-fields/types.js';
export { BUILT_IN_NAVIGATION_VIEWS } from './actions/navigation-views.js';
export { parseInviteeEmails } from './actions/invites.js';
export { announceVideoProviderToken } from './actions/video-calls.js';
export { AVATAR_SIZE, MAX_AVATAR_PIXELS, MEDIUM_AVATAR_SIZE } from './avatars/images.js';
export { avatarBlobKey } from './avatars/blobs.js';
export { uploadedAvatarFile } from './format/avatar.js';

// Passwords and login limits.
export { checkPassword, hashPassword, type PasswordCheck } from './auth/password.js';
export { addressKey, type LoginAttempt } from './auth/login-limits.js';

// Background jobs one by one (startBackgroundWork runs them all), and hooks for tests.
export { deliverDueScheduledMessages } from './scheduled/deliver.js';
export { type ScheduledDelivery, startScheduledDelivery } from './scheduled/scheduler.js';
export { retentionDays, sweepExpiredMessages } from './retention/sweep.js';
export { startRetentionSweeps } from './retention/timer.js';
export { type PeriodicJob, startPeriodicJob } from './jobs/periodic.js';
export { startUploadSweep, sweepUnusedUploads } from './uploads/sweep.js';
export { unsavedPresenceCount } from './presence/memory.js';
export { startPresenceFlush } from './presence/flush.js';
export { pushJobsSettled } from './push/background.js';
export { outgoingWebhooksSettled, stopOutgoingWebhooks } from './bots/outgoing/runner.js';

// ── Several processes on one database (driver packages and the HTTP adapter) ─────────────────
export type { ClusterMember, JobLock, NodeDirectory } from './cluster/types.js';
export { isValidNodeId } from './cluster/types.js';
export { nodeOfQueue, type QueueRoute, routeQueue } from './cluster/queue-owner.js';
export { createMemoryCluster, type MemoryCluster } from './cluster/memory.js';
export type { EventTransport } from './events/transport.js';
export { type EventLogReader, EventSequencer, type LoggedEvent } from './events/sequencer.js';
export type { LoginAttemptChange, LoginAttemptFeed } from './auth/login-limits.js';
export { FIT_TOLERANCE_MS } from './rate-limits/limiter.js';

// ── The shared SQL layer, for storage drivers (@teamchat/postgres) and the CLI's archive checks ─
export * from './storage/sql-kit.js';

// Object copies that keep V8's hidden classes shared (objects.ts).
export { copyOf, extend } from './objects.js';
