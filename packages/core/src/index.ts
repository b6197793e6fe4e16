/**
 * `@teamchat/core`: the team-chat engine as a library. Everything an application that embeds it
 * uses is exported here, grouped as below; anything else is internal and may change in any
 * release (`@teamchat/core/internal` exposes it, unstable, to this repository's own adapters and
 * tests). Storage drivers are separate entry points: `@teamchat/core/sqlite`.
 *
 * Every operation is called the same way, in process, with the same parameters as the REST
 * endpoint it implements, and always resolves to a `Result` (neverthrow), never rejects:
 *
 * ```ts
 * import { closeContext, createRealm, doSendMessage } from '@teamchat/core';
 * import { createSqliteContext } from '@teamchat/core/sqlite';
 *
 * const ctx = createSqliteContext({ databaseFile: 'chat.db' });
 * const created = await createRealm(ctx, { name: 'Acme', url: 'https://chat.acme.test', owner });
 * if (created.isErr()) throw new Error(created.error.msg);
 * const { realm, owner: user } = created.value;
 * const sent = await doSendMessage(ctx, { realm, user }, { type: 'stream', to: 'general', topic: 'hi', content: 'Hello' });
 * if (sent.isErr()) console.error(sent.error.code, sent.error.msg);
 * await closeContext(ctx);
 * ```
 *
 * @module
 */

// ── Context and lifecycle ─────────────────────────────────────────────────────────────────
export { type ContextOptions, type Ctx, closeContext, createContext } from './context.js';
export { startBackgroundWork, type BackgroundWork } from './jobs/background.js';
export { checkReadiness, type Readiness } from './health/readiness.js';
export { flushPresence } from './presence/memory.js';
export { DEFAULT_CONFIG, USER_LIMITS, type ServerConfig } from './config.js';
export { type Clock, systemClock } from './clock.js';
export { consoleLogger, silentLogger, type Logger } from './logger.js';
export { type Mailer, memoryMailer } from './mail/mailer.js';
export { flushOutbox } from './mail/outbox.js';
export { type BlobStore, memoryBlobStore } from './uploads/blob-store.js';
export { fileSystemBlobStore } from './uploads/fs-blob-store.js';
export { checkRateLimit, type RateLimitDecision } from './rate-limits/check.js';
export { type RateLimitBucket, type RateLimitHit, type RateLimiter, takeFromBucket } from './rate-limits/limiter.js';
export { type MemoryRateLimiterOptions, memoryRateLimiter } from './rate-limits/memory.js';
export {
  invalidRateLimitRule,
  RATE_LIMIT_DOMAINS,
  type RateLimitDomain,
  type RateLimitRule,
  type RateLimitRules,
  REFERENCE_RATE_LIMIT_RULES,
} from './rate-limits/rules.js';
export type {
  E2eePushData,
  E2eePushDevice,
  MessagePushNotification,
  PushAlert,
  PushData,
  PushDeviceRegistration,
  PushNotifier,
  PushRegistrationOutcome,
  PushRemoval,
  PushTestNotification,
  PushTrigger,
} from './push/notifier.js';
export { createLinkVideoCallProvider, type VideoCallOutcome, type VideoCallProvider } from './video-calls/provider.js';
export { DEFAULT_OUTGOING_WEBHOOK_OPTIONS, type OutgoingWebhookOptions } from './bots/outgoing/options.js';
export { nodeScrypt, type ScryptCost, type ScryptFn } from './auth/scrypt.js';

// ── Storage contract (for driver authors; drivers are subpaths such as @teamchat/core/sqlite) ──
export type * from './storage/types.js';
export { FLAG_BITS, SearchTooBroadError, VISIBILITY_POLICY } from './storage/types.js';

// ── Realms, users and authentication (server operator's view, no acting user) ──────────────
export {
  changeUserAsOperator,
  createRealm,
  createUserAsOperator,
  findRealm,
  type NewRealmInput,
  type NewUserInput,
  type OperatorUserChange,
  updateRealmAsOperator,
} from './actions/operator.js';
export { ensureNotificationBots } from './system-bots/notification-bot.js';
export { ROLE, ROLES } from './storage/types.js';
export { type ApiKeyCredentials, authenticateApiKey, authenticateRequest, resolveRealm } from './auth/authenticate.js';

// ── The operation call convention ───────────────────────────────────────────────────────────
export { type Actor, type AuthMode, type Caller, checkCaller, type Operation } from './operation.js';

// ── Operations: messages ────────────────────────────────────────────────────────────────────
export { doSendMessage } from './actions/send-message.js';
export { doUpdateMessage } from './actions/update-message.js';
export { doDeleteMessage } from './actions/delete-messages.js';
export { doDeleteTopic } from './actions/delete-topic.js';
export { getMatchesNarrow, getMessage, getMessageHistory, getMessages } from './queries/messages.js';
export { getRenderedMessage } from './queries/render-message.js';
export { getReadReceipts } from './queries/read-receipts.js';
export { getStreamTopics } from './queries/topics.js';
export { doUpdateMessageFlags, doUpdateMessageFlagsForNarrow } from './actions/message-flags.js';
export { doMarkAllAsRead, doMarkStreamAsRead, doMarkTopicAsRead } from './actions/mark-read.js';
export { doAddReaction, doRemoveReaction } from './actions/reactions.js';
export { doSendSubmessage } from './actions/submessages.js';
export { doReportMessage } from './actions/message-report.js';
export { doSendTyping } from './actions/typing.js';
export { doSendEditTyping } from './actions/edit-typing.js';
export { doCreateDrafts, doDeleteDraft, doEditDraft } from './actions/drafts.js';
export { getDrafts } from './queries/drafts.js';
export { doCreateScheduledMessage, doDeleteScheduledMessage, doEditScheduledMessage } from './actions/scheduled-messages.js';
export { getScheduledMessages } from './queries/scheduled-messages.js';
export { doCreateReminder, doDeleteReminder } from './actions/reminders.js';
export { getReminders } from './queries/reminders.js';
export { doCreateSavedSnippet, doDeleteSavedSnippet, doEditSavedSnippet } from './actions/saved-snippets.js';
export { getSavedSnippets } from './queries/saved-snippets.js';

// ── Operations: channels and subscriptions ──────────────────────────────────────────────────
export { doCreateChannel } from './actions/create-channel.js';
export { doAddDefaultStream, doArchiveStream, doRemoveDefaultStream, doUpdateStream } from './actions/channels.js';
export { doSubscribe, doUnsubscribe, doUpdateSubscriptionProperties } from './actions/subscriptions.js';
export { getDefaultStreams, getStream, getStreamId, getStreamMembers, getStreams, getSubscriptions } from './queries/channels.js';
export { getSubscriptionStatus } from './queries/subscription-status.js';
export { doCreateChannelFolder, doReorderChannelFolders, doUpdateChannelFolder } from './actions/channel-folders.js';
export { getChannelFolders } from './queries/channel-folders.js';
export { doUpdateMutedTopic, doUpdateUserTopic } from './actions/user-topics.js';

// ── Operations: users, bots and groups ──────────────────────────────────────────────────────
export { doCreateUser, doUpdateUser } from './actions/users.js';
export { doDeactivateUser, doReactivateUser } from './actions/user-activation.js';
export { getOwnUser, getUser, getUsers } from './queries/users.js';
export { doFetchApiKey, doRegenerateApiKey } from './actions/api-keys.js';
export { doUpdateSettings } from './actions/settings.js';
export { doDeleteAvatar, doUploadAvatar } from './actions/avatars.js';
export { getAvatarImage, getAvatarRedirect, getMediumAvatarRedirect, type Redirect } from './queries/avatars.js';
export { doUpdateOwnStatus, doUpdateUserStatus } from './actions/user-status.js';
export { getUserStatus } from './queries/user-status.js';
export { doMuteUser, doUnmuteUser } from './actions/muted-users.js';
export { doUpdatePresence } from './actions/presence.js';
export { getRealmPresence, getUserPresence } from './queries/presence.js';
export { doAddAlertWords, doRemoveAlertWords } from './actions/alert-words.js';
export { getAlertWords } from './queries/alert-words.js';
export { doUpdateOwnProfileData } from './actions/profile-data.js';
export { doCreateBot, type CreatedBot } from './actions/bots.js';
export { doUpdateBot } from './actions/bot-changes.js';
export { doDeactivateBot, doRegenerateBotApiKey } from './actions/bot-lifecycle.js';
export { getBots } from './queries/bots.js';
export { doPutBotStorage, doRemoveBotStorage, getBotStorage } from './actions/bot-storage.js';
export { doCreateUserGroup, doUpdateUserGroupMembers } from './actions/user-groups.js';
export { doDeactivateUserGroup, doUpdateUserGroup } from './actions/user-group-changes.js';
export { doUpdateUserGroupSubgroups } from './actions/user-group-subgroups.js';
export { getIsUserGroupMember, getUserGroupMembers, getUserGroups, getUserGroupSubgroups } from './queries/user-groups.js';
export { doCreateMultiuseInvite, doInviteUsers } from './actions/invites.js';
export { doResendInvite, doRevokeInvite, doRevokeMultiuseInvite } from './actions/invite-changes.js';
export { doAcceptInvite } from './actions/accept-invite.js';
export { getInvites } from './queries/invites.js';

// ── Operations: the organization ────────────────────────────────────────────────────────────
export { doUpdateRealm } from './actions/realm-settings.js';
export { doUpdateRealmUserDefaults } from './actions/realm-user-defaults.js';
export { doAddRealmDomain, doChangeRealmDomain, doRemoveRealmDomain } from './actions/realm-domains.js';
export { getRealmDomains } from './queries/realm-domains.js';
export { doAddRealmEmoji, doDeactivateRealmEmoji } from './actions/realm-emoji.js';
export { type EmojiImage, getRealmEmoji, getRealmEmojiImage } from './queries/realm-emoji.js';
export { getServerEmojiData } from './queries/server-emoji-data.js';
export {
  doCreateProfileField,
  doDeleteProfileField,
  doReorderProfileFields,
  doUpdateProfileField,
} from './actions/profile-fields.js';
export { getProfileFields } from './queries/profile-fields.js';
export { doAddLinkifier, doRemoveLinkifier, doReorderLinkifiers, doUpdateLinkifier } from './actions/linkifiers.js';
export { getLegacyLinkifiers, getLinkifiers } from './queries/linkifiers.js';
export { doAddPlayground, doRemovePlayground } from './actions/playgrounds.js';
export { doAddNavigationView, doEditNavigationView, doRemoveNavigationView } from './actions/navigation-views.js';
export { getNavigationViews } from './queries/navigation-views.js';
export { doCreateVideoCall } from './actions/video-calls.js';
export { getServerSettings } from './queries/server-settings.js';

// ── Operations: uploads ─────────────────────────────────────────────────────────────────────
export { doUploadFile } from './actions/uploads.js';
export { doDeleteAttachment } from './actions/attachments.js';
export { getAttachments } from './queries/attachments.js';
export { getFileTemporaryUrl, getTemporaryFile, getUploadedFile } from './queries/uploaded-files.js';
export { isUploadedFile, type UploadedFile } from './schemas/upload.js';
export { type ByteSource, isStreamedUpload, type StreamedUpload } from './uploads/streamed-upload.js';
export type { ServedFile } from './uploads/served-file.js';

// ── Operations: push notifications and devices ──────────────────────────────────────────────
export { doAddApnsToken, doAddFcmToken, doRemoveApnsToken, doRemoveFcmToken } from './actions/push-tokens.js';
export { doRegisterClientDevice, doRegisterPushDevice, doRemoveClientDevice } from './actions/client-devices.js';
export { doSendE2eeTestPushNotification, doSendTestPushNotification } from './actions/push-test.js';

// ── Events ──────────────────────────────────────────────────────────────────────────────────
export { type EventStream, openEventStream, type StreamedEvent } from './events/stream.js';
export { doDeleteQueue, doRegister, getEvents } from './actions/events.js';
export type * from './events/union.js';
export { EVENT_TYPES } from './events/union.js';
export { CLIENT_CAPABILITIES, type ClientCapability, type QueuedEvent } from './events/types.js';
export { createEventBus, type EventBus, type EventListener, type PublishedEvent, type Tailoring } from './events/bus.js';

// ── Errors ──────────────────────────────────────────────────────────────────────────────────
export {
  ApiError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorVariant,
  type InviteeError,
  badRequest,
  internalError,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  requestTimeout,
  unauthorized,
} from './errors.js';

// ── Types of operation results ──────────────────────────────────────────────────────────────
export type { ApiUserStatus } from './format/user-status.js';
export type { ApiMutedUser } from './muting/muted-users.js';
export type { AttachmentRecord } from './uploads/attachment-record.js';
export type * from './api-types.js';
