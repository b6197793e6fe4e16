/**
 * The reference's push payloads (zerver/lib/push_notifications.py): the legacy FCM data
 * (get_base_payload, get_message_payload_gcm, the removal) with every value a string, as FCM
 * delivers data messages and as the apps parse them; the APNs alert's title and subtitle; and
 * the E2EE payloads (api_docs/mobile-notifications.md) a notifier encrypts for E2EE devices.
 */
import { avatarUrl } from '../format/avatar.js';
import { apiEmail, INACCESSIBLE_USER_NAME } from '../format/user.js';
import { topicForClient } from '../messages/normalize.js';
import type { Message, Realm, Stream, User } from '../storage/types.js';
import { mobilePushContent } from './content.js';
import type { E2eePushData, PushAlert, PushData, PushTrigger } from './notifier.js';
import { realmHostname } from '../format/realm-host.js';

/** What a message's payload shows besides the message: its sender, channel and participants. */
export interface PushMessageView {
  realm: Realm;
  message: Message;
  sender: User;
  /** Channel messages. */
  stream?: Stream;
  /** Direct messages: every participant, the sender included. */
  participants: readonly User[];
  /** The smallest mentioned group through which the recipient was mentioned, when not personally. */
  mentionedGroup?: { id: number; name: string };
  /** The recipient may not access the sender (a restricted guest reading a channel): the sender shows as "Unknown user". */
  senderHidden?: boolean;
}

/** The sender as the recipient may see them (the reference's can_access_sender). */
function shownSender({ realm, sender, senderHidden }: PushMessageView) {
  if (senderHidden) {
    return { name: INACCESSIBLE_USER_NAME, email: `user${sender.id}@${realmHostname(realm.url)}`, avatar: `${realm.url}/static/images/unknown-user-avatar.png` };
  }
  const url = avatarUrl(realm, sender, false, true) ?? '';
  return { name: sender.fullName, email: apiEmail(realm, sender), avatar: url.startsWith('/') ? `${realm.url}${url}` : url };
}

/** FCM data values are strings. */
const strings = (fields: Record<string, string | number | boolean>): PushData =>
  Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)]));

/** The realm and recipient fields every legacy payload starts with (the reference's get_base_payload). */
function basePayload(realm: Realm, userId: number) {
  return { server: new URL(realm.url).host, realm_id: realm.id, realm_name: realm.name, realm_uri: realm.url, realm_url: realm.url, user_id: userId };
}

/** A group direct message has three or more participants; one with oneself or one other is "personal". */
const isGroupDirect = (view: PushMessageView) => view.message.type === 'private' && view.participants.length > 2;

const groupFields = (view: PushMessageView): Record<string, string | number> =>
  view.mentionedGroup ? { mentioned_user_group_id: view.mentionedGroup.id, mentioned_user_group_name: view.mentionedGroup.name } : {};

/** The legacy `event: "message"` data for `userId` (the reference's get_message_payload_gcm). */
export function messagePayload(view: PushMessageView, userId: number): PushData {
  const { realm, message, sender } = view;
  const conversation: Record<string, string | number> = message.type === 'stream'
    ? { recipient_type: 'stream', stream: view.stream?.name ?? '', stream_id: message.streamId!, topic: topicForClient(message.topic, false) }
    : { recipient_type: 'private', ...(isGroupDirect(view) ? { pm_users: message.dmKey! } : {}) };
  const { content, truncated } = mobilePushContent(message.renderedContent);
  const shown = shownSender(view);
  return strings({
    ...basePayload(realm, userId),
    sender_id: sender.id,
    sender_email: shown.email,
    time: message.dateSent,
    ...groupFields(view),
    ...conversation,
    event: 'message',
    zulip_message_id: message.id,
    content,
    content_truncated: truncated,
    sender_full_name: shown.name,
    sender_avatar_url: shown.avatar,
  });
}

/** The E2EE `type: "message"` payload: the legacy fields renamed, typed, and the DM's participants listed. */
export function e2eeMessagePayload(view: PushMessageView, userId: number): E2eePushData {
  const { realm, message, sender } = view;
  const conversation: E2eePushData = message.type === 'stream'
    ? { recipient_type: 'channel', channel_id: message.streamId!, channel_name: view.stream?.name ?? '', topic: topicForClient(message.topic, false) }
    : { recipient_type: 'direct', recipient_user_ids: message.dmKey!.split(',').map(Number) };
  const shown = shownSender(view);
  return {
    ...conversation,
    ...groupFields(view),
    content: mobilePushContent(message.renderedContent).content,
    message_id: message.id,
    realm_name: realm.name,
    realm_url: realm.url,
    sender_avatar_url: shown.avatar,
    sender_full_name: shown.name,
    sender_id: sender.id,
    time: message.dateSent,
    type: 'message',
    user_id: userId,
  };
}

/** The alert's title, subtitle and body (the reference's get_apns_alert_title and get_apns_alert_subtitle). */
export function messageAlert(view: PushMessageView, trigger: PushTrigger): PushAlert {
  const { message, sender } = view;
  let title = sender.fullName;
  if (message.type === 'stream') title = `#${view.stream?.name ?? ''} > ${topicForClient(message.topic, false)}`;
  else if (isGroupDirect(view)) title = view.participants.map((u) => u.fullName).sort().join(', ');

  const name = shownSender(view).name;
  let subtitle = `${name}:`;
  if (trigger === 'mentioned') {
    subtitle = view.mentionedGroup ? `${name} mentioned @${view.mentionedGroup.name}:` : `${name} mentioned you:`;
  } else if (trigger.includes('wildcard_mentioned')) {
    subtitle = `${name} mentioned everyone:`;
  } else if (message.type === 'private' && !isGroupDirect(view)) {
    subtitle = '';
  }
  return { title, subtitle, body: mobilePushContent(message.renderedContent).content };
}

/** The legacy `event: "remove"` data taking back notifications of `messageIds` (ascending). */
export function removalPayload(realm: Realm, userId: number, messageIds: readonly number[]): PushData {
  return strings({
    ...basePayload(realm, userId),
    event: 'remove',
    zulip_message_ids: messageIds.join(','),
    // Clients from before 2019 read only this one field.
    zulip_message_id: messageIds[0]!,
  });
}

/** The E2EE `type: "remove"` payload. */
export function e2eeRemovalPayload(realm: Realm, userId: number, messageIds: readonly number[]): E2eePushData {
  return { message_ids: [...messageIds], realm_name: realm.name, realm_url: realm.url, type: 'remove', user_id: userId };
}

/** The test notification's data and alert (the reference's send_test_push_notification_directly_to_devices). */
export function testPayload(realm: Realm, userId: number, nowSeconds: number): { data: PushData; e2eeData: E2eePushData; alert: PushAlert } {
  return {
    data: strings({ ...basePayload(realm, userId), event: 'test', time: nowSeconds }),
    e2eeData: { realm_name: realm.name, realm_url: realm.url, time: nowSeconds, type: 'test', user_id: userId },
    alert: { title: 'Test notification', subtitle: '', body: `This is a test notification from ${realm.name} (${realm.url}).` },
  };
}
