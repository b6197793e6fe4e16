/**
 * The route table: every endpoint under /api/v1, one line each. Paths use the API's
 * `{name}` placeholders; handlers only decode the transport and call the core operation.
 * `{+name}` (RFC 6570's reserved expansion) is a placeholder whose value may contain slashes,
 * such as a navigation view's fragment `narrow/is/starred`; it takes the rest of the path.
 */
import {
  doCreateVideoCall,
  doAddLinkifier,
  doRemoveLinkifier,
  doReorderLinkifiers,
  doUpdateLinkifier,
  getLinkifiers,
  doCreateProfileField,
  doDeleteProfileField,
  doReorderProfileFields,
  doUpdateOwnProfileData,
  doUpdateProfileField,
  getProfileFields,
  doAddNavigationView,
  doEditNavigationView,
  doRemoveNavigationView,
  getNavigationViews,
  doAddAlertWords,
  doCreateDrafts,
  doDeleteDraft,
  doEditDraft,
  getDrafts,
  doRemoveAlertWords,
  getAlertWords,
  doUpdateMessage,
  doDeleteMessage,
  doDeleteTopic,
  doSendEditTyping,
  getStreamTopics,
  doAddReaction,
  doRemoveReaction,
  doAddRealmEmoji,
  doDeactivateRealmEmoji,
  getRealmEmoji,
  getRealmEmojiImage,
  type EmojiImage,
  doUpdateMessageFlags,
  doUpdateMessageFlagsForNarrow,
  doMarkAllAsRead,
  doMarkStreamAsRead,
  doMarkTopicAsRead,
  doSendMessage,
  getMessages,
  getMessage,
  getMatchesNarrow,
  doAddDefaultStream,
  doArchiveStream,
  doRemoveDefaultStream,
  doSubscribe,
  doUnsubscribe,
  doUpdateStream,
  doUpdateSubscriptionProperties,
  getDefaultStreams,
  getStream,
  getStreamId,
  getStreamMembers,
  getStreams,
  getSubscriptions,
  doCreateUser,
  doDeleteQueue,
  doRegister,
  doSendTyping,
  getEvents,
  doDeactivateUser,
  doFetchApiKey,
  doReactivateUser,
  doRegenerateApiKey,
  doUpdateSettings,
  doUpdateUser,
  getOwnUser,
  getServerSettings,
  getUser,
  getUsers,
  type Operation,
} from '@teamchat/core';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

// biome-ignore lint/suspicious/noExplicitAny: the table holds operations of every parameter and result type.
export type AnyOperation = Operation<any, any>;

export interface Route {
  path: string;
  methods: Partial<Record<Method, AnyOperation>>;
}

export const ROUTES: readonly Route[] = [
  { path: '/server_settings', methods: { GET: getServerSettings } },
  { path: '/fetch_api_key', methods: { POST: doFetchApiKey } },
  { path: '/register', methods: { POST: doRegister } },
  { path: '/events', methods: { GET: getEvents, DELETE: doDeleteQueue } },
  { path: '/typing', methods: { POST: doSendTyping } },
  { path: '/settings', methods: { PATCH: doUpdateSettings } },
  { path: '/users', methods: { GET: getUsers, POST: doCreateUser } },
  { path: '/users/me', methods: { GET: getOwnUser } },
  { path: '/drafts', methods: { GET: getDrafts, POST: doCreateDrafts } },
  { path: '/drafts/{draft_id}', methods: { PATCH: doEditDraft, DELETE: doDeleteDraft } },
  { path: '/users/me/alert_words', methods: { GET: getAlertWords, POST: doAddAlertWords, DELETE: doRemoveAlertWords } },
  { path: '/users/me/subscriptions', methods: { GET: getSubscriptions, POST: doSubscribe, DELETE: doUnsubscribe } },
  { path: '/users/me/subscriptions/properties', methods: { POST: doUpdateSubscriptionProperties } },
  { path: '/users/me/api_key/regenerate', methods: { POST: doRegenerateApiKey } },
  { path: '/users/{user_id}', methods: { GET: getUser, PATCH: doUpdateUser, DELETE: doDeactivateUser } },
  { path: '/users/{user_id}/reactivate', methods: { POST: doReactivateUser } },
  { path: '/streams', methods: { GET: getStreams } },
  { path: '/streams/{stream_id}', methods: { GET: getStream, PATCH: doUpdateStream, DELETE: doArchiveStream } },
  { path: '/streams/{stream_id}/members', methods: { GET: getStreamMembers } },
  { path: '/get_stream_id', methods: { GET: getStreamId } },
  { path: '/default_streams', methods: { GET: getDefaultStreams, POST: doAddDefaultStream, DELETE: doRemoveDefaultStream } },
  { path: '/messages', methods: { GET: getMessages, POST: doSendMessage } },
  { path: '/messages/matches_narrow', methods: { POST: getMatchesNarrow } },
  { path: '/messages/flags', methods: { POST: doUpdateMessageFlags } },
  { path: '/messages/flags/narrow', methods: { POST: doUpdateMessageFlagsForNarrow } },
  { path: '/mark_all_as_read', methods: { POST: doMarkAllAsRead } },
  { path: '/mark_stream_as_read', methods: { POST: doMarkStreamAsRead } },
  { path: '/mark_topic_as_read', methods: { POST: doMarkTopicAsRead } },
  { path: '/messages/{message_id}', methods: { GET: getMessage, PATCH: doUpdateMessage, DELETE: doDeleteMessage } },
  { path: '/messages/{message_id}/typing', methods: { POST: doSendEditTyping } },
  { path: '/streams/{stream_id}/delete_topic', methods: { POST: doDeleteTopic } },
  { path: '/users/me/{stream_id}/topics', methods: { GET: getStreamTopics } },
  { path: '/messages/{message_id}/reactions', methods: { POST: doAddReaction, DELETE: doRemoveReaction } },
  { path: '/realm/emoji', methods: { GET: getRealmEmoji } },
  { path: '/realm/linkifiers', methods: { GET: getLinkifiers, PATCH: doReorderLinkifiers } },
  { path: '/realm/filters', methods: { POST: doAddLinkifier } },
  { path: '/realm/filters/{filter_id}', methods: { PATCH: doUpdateLinkifier, DELETE: doRemoveLinkifier } },
  { path: '/realm/profile_fields', methods: { GET: getProfileFields, POST: doCreateProfileField, PATCH: doReorderProfileFields } },
  { path: '/realm/profile_fields/{field_id}', methods: { PATCH: doUpdateProfileField, DELETE: doDeleteProfileField } },
  { path: '/users/me/profile_data', methods: { PATCH: doUpdateOwnProfileData } },
  { path: '/realm/emoji/{emoji_name}', methods: { POST: doAddRealmEmoji, DELETE: doDeactivateRealmEmoji } },
  { path: '/navigation_views', methods: { GET: getNavigationViews, POST: doAddNavigationView } },
  { path: '/navigation_views/{+fragment}', methods: { PATCH: doEditNavigationView, DELETE: doRemoveNavigationView } },
  { path: '/calls/videoprovider/create', methods: { POST: doCreateVideoCall } },
];

/** A route outside /api/v1 that answers GET with a file: a public operation giving bytes and their type. */
export interface FileRoute {
  path: string;
  operation: Operation<unknown, EmojiImage>;
}

export const FILE_ROUTES: readonly FileRoute[] = [
  { path: '/user_avatars/{realm_id}/emoji/images/{file}', operation: getRealmEmojiImage as Operation<unknown, EmojiImage> },
];
