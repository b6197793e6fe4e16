export * from './errors.js';
export * from './context.js';
export * from './config.js';
export * from './clock.js';
export * from './operation.js';
export * from './storage/types.js';
export { createSqliteStorage, type SqliteOptions } from './storage/sqlite/driver.js';
export { type EventBus, type PublishedEvent, createEventBus } from './events/bus.js';
export { QueueRegistry, badEventQueueId } from './events/queues.js';
export type { EventQueue } from './events/queue.js';
export type { ApiEvent, QueuedEvent, QueueOptions, ClientCapability } from './events/types.js';
export { CLIENT_CAPABILITIES } from './events/types.js';
export { defineEventRule } from './events/rules.js';
export { publishOnCommit } from './events/publish.js';
export { defineStateSection, type StateSection } from './state/sections.js';
export { doRegister, getEvents, doDeleteQueue } from './actions/events.js';
export { openEventStream, type EventStream } from './events/stream.js';
export { doSendTyping } from './actions/typing.js';
export { doSubscribe, doUnsubscribe, doUpdateSubscriptionProperties } from './actions/subscriptions.js';
export { doCreateChannel } from './actions/create-channel.js';
export { doUpdateStream, doArchiveStream, doAddDefaultStream, doRemoveDefaultStream } from './actions/channels.js';
export { getSubscriptions, getStreams, getStream, getStreamMembers, getStreamId, getDefaultStreams } from './queries/channels.js';
export { type Mailer, memoryMailer } from './mail/mailer.js';
export { flushOutbox } from './mail/outbox.js';
export { resolveRealm, authenticateApiKey } from './auth/authenticate.js';
export * from './actions/operator.js';
export { doCreateUser, doUpdateUser } from './actions/users.js';
export { doDeactivateUser, doReactivateUser } from './actions/user-activation.js';
export { doFetchApiKey, doRegenerateApiKey } from './actions/api-keys.js';
export { doUpdateSettings } from './actions/settings.js';
export { getUsers, getUser, getOwnUser } from './queries/users.js';
export { getServerSettings } from './queries/server-settings.js';
export { formatUser, apiEmail } from './format/user.js';
export { validateInput, varName } from './schemas/validate.js';
export * from './markdown/index.js';
export * from './emoji/index.js';
export { doSendMessage } from './actions/send-message.js';
export { getMessages, getMessage, getMessageHistory, getMatchesNarrow } from './queries/messages.js';
export { doAddReaction, doRemoveReaction } from './actions/reactions.js';
export { doSendSubmessage } from './actions/submessages.js';
export { doReportMessage } from './actions/message-report.js';
export { REPORT_TYPES, REPORT_DESCRIPTION_MAX, type ReportType } from './schemas/message-report.js';
export { SUBMESSAGE_CONTENT_MAX, SUBMESSAGE_TYPE_MAX } from './schemas/submessages.js';
export { widgetFromContent, type WidgetContent } from './widgets/content.js';
export { doAddRealmEmoji, doDeactivateRealmEmoji } from './actions/realm-emoji.js';
export { getRealmEmoji, getRealmEmojiImage, type EmojiImage } from './queries/realm-emoji.js';
export { type UploadedFile, isUploadedFile } from './schemas/upload.js';
export { detectImageType, MAX_EMOJI_FILE_SIZE_MIB } from './emoji/image.js';
export { doUpdateMessageFlags, doUpdateMessageFlagsForNarrow } from './actions/message-flags.js';
export { doMarkAllAsRead, doMarkStreamAsRead, doMarkTopicAsRead } from './actions/mark-read.js';
export { doUpdateMessage } from './actions/update-message.js';
export { doDeleteMessage } from './actions/delete-messages.js';
export { doDeleteTopic, DELETE_TOPIC_BATCH_SIZE } from './actions/delete-topic.js';
export { doSendEditTyping } from './actions/edit-typing.js';
export { getStreamTopics } from './queries/topics.js';
export { doAddAlertWords, doRemoveAlertWords } from './actions/alert-words.js';
export { getAlertWords } from './queries/alert-words.js';
export {
  doCreateProfileField,
  doDeleteProfileField,
  doReorderProfileFields,
  doUpdateProfileField,
} from './actions/profile-fields.js';
export { doUpdateOwnProfileData } from './actions/profile-data.js';
export { getProfileFields } from './queries/profile-fields.js';
export { FIELD_TYPES, DEFAULT_EXTERNAL_ACCOUNTS } from './profile-fields/types.js';
export { doAddNavigationView, doEditNavigationView, doRemoveNavigationView, BUILT_IN_NAVIGATION_VIEWS } from './actions/navigation-views.js';
export { getNavigationViews } from './queries/navigation-views.js';
export { doCreateChannelFolder, doReorderChannelFolders, doUpdateChannelFolder } from './actions/channel-folders.js';
export { getChannelFolders } from './queries/channel-folders.js';
export { doCreateDrafts, doDeleteDraft, doEditDraft } from './actions/drafts.js';
export { getDrafts } from './queries/drafts.js';
export { doAddLinkifier, doRemoveLinkifier, doReorderLinkifiers, doUpdateLinkifier } from './actions/linkifiers.js';
export { getLegacyLinkifiers, getLinkifiers } from './queries/linkifiers.js';
export { doAddPlayground, doRemovePlayground } from './actions/playgrounds.js';
export { doPutBotStorage, doRemoveBotStorage, getBotStorage } from './actions/bot-storage.js';
export { announceVideoProviderToken, doCreateVideoCall } from './actions/video-calls.js';
export { createLinkVideoCallProvider, type VideoCallOutcome, type VideoCallProvider } from './video-calls/provider.js';
export { doCreateUserGroup, doUpdateUserGroupMembers } from './actions/user-groups.js';
export { getIsUserGroupMember, getUserGroupMembers, getUserGroups, getUserGroupSubgroups } from './queries/user-groups.js';
export { doDeactivateUserGroup, doUpdateUserGroup } from './actions/user-group-changes.js';
export { doUpdateUserGroupSubgroups } from './actions/user-group-subgroups.js';

// Registers every POST /register snapshot section.
import './state/all.js';
export { doCreateScheduledMessage, doEditScheduledMessage, doDeleteScheduledMessage } from './actions/scheduled-messages.js';
export { getScheduledMessages } from './queries/scheduled-messages.js';
export { deliverDueScheduledMessages } from './scheduled/deliver.js';
export { startScheduledDelivery, type ScheduledDelivery } from './scheduled/scheduler.js';
export { doCreateReminder, doDeleteReminder } from './actions/reminders.js';
export { getReminders } from './queries/reminders.js';
export { retentionDays, sweepExpiredMessages } from './retention/sweep.js';
export { startRetentionSweeps } from './retention/timer.js';
export { startPeriodicJob, type PeriodicJob } from './jobs/periodic.js';
export { hasRealmPermission } from './access/realm-rules.js';
export { systemGroupId, groupSettingForApi } from './access/system-groups.js';
export * from './settings/realm-settings.js';
export { doCreateSavedSnippet, doEditSavedSnippet, doDeleteSavedSnippet } from './actions/saved-snippets.js';
export { getSavedSnippets } from './queries/saved-snippets.js';
export { doUpdateRealmUserDefaults } from './actions/realm-user-defaults.js';
export { doAddRealmDomain, doChangeRealmDomain, doRemoveRealmDomain } from './actions/realm-domains.js';
export { getRealmDomains } from './queries/realm-domains.js';
export { doUploadFile } from './actions/uploads.js';
export { doDeleteAttachment } from './actions/attachments.js';
export { getAttachments } from './queries/attachments.js';
export { getFileTemporaryUrl, getTemporaryFile, getUploadedFile } from './queries/uploaded-files.js';
export { type BlobStore, memoryBlobStore } from './uploads/blob-store.js';
export { fileSystemBlobStore } from './uploads/fs-blob-store.js';
export type { ServedFile } from './uploads/served-file.js';
export type { AttachmentRecord } from './uploads/attachment-record.js';
export { sweepUnusedUploads, startUploadSweep } from './uploads/sweep.js';
export { doUpdateMutedTopic, doUpdateUserTopic } from './actions/user-topics.js';
export { doUpdateRealm } from './actions/realm-settings.js';
export { REALM_GROUP_PERMISSIONS, CHANNEL_GROUP_PERMISSIONS, type GroupPermissionConfig } from './settings/realm-group-permissions.js';
export {
  canonicalGroupSetting,
  groupSettingChanges,
  resolveGroupSetting,
  sameGroupSetting,
  type ApiGroupSettingValue,
  type GroupDirectory,
} from './schemas/group-setting.js';
export { checkDirectMessagePermission } from './access/direct-message-rules.js';
export { NOTIFICATION_BOT_EMAIL, NOTIFICATION_BOT_NAME, ensureNotificationBots, notificationBot } from './system-bots/notification-bot.js';
export { sendNotificationBotMessage, sendNotificationBotMessageNow, type Notice, type NoticeAddress } from './system-bots/send.js';
export { insertMessage, type SentMessage } from './actions/message-insert.js';
export { doInviteUsers, doCreateMultiuseInvite, parseInviteeEmails } from './actions/invites.js';
export { doRevokeInvite, doRevokeMultiuseInvite, doResendInvite } from './actions/invite-changes.js';
export { doAcceptInvite } from './actions/accept-invite.js';
export { getInvites } from './queries/invites.js';
export { doUpdateOwnStatus, doUpdateUserStatus } from './actions/user-status.js';
export { getUserStatus } from './queries/user-status.js';
export type { ApiUserStatus } from './format/user-status.js';
export { doMuteUser, doUnmuteUser } from './actions/muted-users.js';
export type { ApiMutedUser } from './muting/muted-users.js';
export { getReadReceipts } from './queries/read-receipts.js';
