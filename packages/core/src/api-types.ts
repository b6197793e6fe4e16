/**
 * The typed surface of the operations, in one place: what an operation takes (`InputOf`) and
 * what it answers (`ResultOf`), and the named shapes of its answers. Field names are the
 * wire's, so the same types describe an in-process result and a decoded HTTP response.
 */
export type { InputOf, InputOfParams, Operation, ResultOf, TransportInput } from './operation.js';

export type { ApiUser } from './format/user.js';
export type { ApiProfileField, ApiProfileValue, ProfileData } from './format/profile-field.js';
export type { ApiUserStatus } from './format/user-status.js';
export type { ApiGroupSettingValue, ApiStream, ApiSubscription, ApiSubscriptionFields } from './format/channel.js';
export type { ApiNeverSubscribed, ChannelSubscribers, SubscriptionLists } from './queries/channel-lists.js';
export type { ApiChannelFolder } from './format/channel-folder.js';
export type { ApiUserGroup } from './format/user-group.js';
export type { ApiDisplayRecipient, ApiMessage, ApiReaction, ApiSubmessage, ApiTopicLink } from './messages/format.js';
export type { ApiDraft } from './drafts/fields.js';
export type { ApiScheduledMessage } from './scheduled/fields.js';
export type { ApiReminder } from './scheduled/reminder-fields.js';
export type { ApiSavedSnippet } from './queries/saved-snippets.js';
export type { ApiLinkifier } from './format/linkifier.js';
export type { ApiPlayground } from './format/playground.js';
export type { ApiRealmEmoji } from './format/realm-emoji.js';
export type { ApiInvitation } from './format/invitation.js';
export type { ApiMutedUser } from './muting/muted-users.js';
export type {
  ApiNavigationView,
  ApiRealmDomain,
  ApiRecentConversation,
  ApiUserTopic,
  InitialState,
  RegisterQueueFields,
  RegisterResponse,
  UnreadMessages,
} from './state/register-response.js';
export type { SentMessage } from './messages/insert.js';
export type { EditSnapshot } from './messages/edit-history.js';
export type { UpdateMessageResponse } from './actions/update-message.js';
export type { UpdatedRealmSettings, UpdatedRealmValue } from './realm/setting-changes.js';
export type { CreatedBot } from './actions/bots.js';
export type { UpdatedBot } from './actions/bot-changes.js';
export type { BotRecord } from './events/union/users.js';
export type { AttachmentRecord } from './uploads/attachment-record.js';
export type { PresenceAnswer } from './presence/read.js';
export type { ServedFile } from './uploads/served-file.js';
export type { EmojiImage } from './queries/realm-emoji.js';
export type { Redirect } from './queries/avatars.js';
export type { ApiPresence } from './presence/read.js';
export type { LegacyClientPresence, LegacyPresence, ModernPresence } from './presence/format.js';
export type { ApiUserPresence } from './queries/presence.js';
