/**
 * The reference's push payloads (zerver/lib/push_notifications.py): get_base_payload,
 * get_message_payload with its FCM (`gcm`) additions, the APNs alert's title and subtitle, and
 * the removal payload. Values are flat strings and numbers, as FCM data messages carry them.
 */
import { avatarUrl } from '../format/avatar.js';
import { apiEmail } from '../format/user.js';
import { topicForClient } from '../messages/normalize.js';
import type { Message, Realm, Stream, User } from '../storage/types.js';
import { mobilePushContent } from './content.js';
import type { PushAlert, PushData, PushTrigger } from './notifier.js';

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
}

/** The realm and recipient fields every payload starts with. */
export function basePayload(realm: Realm, userId: number): PushData {
  return { server: new URL(realm.url).host, realm_id: realm.id, realm_name: realm.name, realm_uri: realm.url, realm_url: realm.url, user_id: userId };
}

/** A group direct message has three or more participants; one with oneself or one other is "personal". */
const isGroupDirect = (view: PushMessageView) => view.message.type === 'private' && view.participants.length > 2;

/** The `event: "message"` payload for `userId` (the reference's get_message_payload_gcm). */
export function messagePayload(view: PushMessageView, userId: number): PushData {
  const { realm, message, sender } = view;
  const data: PushData = {
    ...basePayload(realm, userId),
    sender_id: sender.id,
    sender_email: apiEmail(realm, sender),
    time: message.dateSent,
  };
  if (view.mentionedGroup) {
    data.mentioned_user_group_id = view.mentionedGroup.id;
    data.mentioned_user_group_name = view.mentionedGroup.name;
  }
  if (message.type === 'stream') {
    data.recipient_type = 'stream';
    data.stream = view.stream?.name ?? '';
    data.stream_id = message.streamId!;
    data.topic = topicForClient(message.topic, false);
  } else {
    data.recipient_type = 'private';
    if (isGroupDirect(view)) data.pm_users = message.dmKey!;
  }
  const { content, truncated } = mobilePushContent(message.renderedContent);
  const avatar = avatarUrl(realm, sender, false, true) ?? '';
  return {
    ...data,
    event: 'message',
    zulip_message_id: message.id,
    content,
    content_truncated: truncated,
    sender_full_name: sender.fullName,
    sender_avatar_url: avatar.startsWith('/') ? `${realm.url}${avatar}` : avatar,
  };
}

/** The alert's title, subtitle and body (the reference's get_apns_alert_title and get_apns_alert_subtitle). */
export function messageAlert(view: PushMessageView, trigger: PushTrigger): PushAlert {
  const { message, sender } = view;
  let title = sender.fullName;
  if (message.type === 'stream') title = `#${view.stream?.name ?? ''} > ${topicForClient(message.topic, false)}`;
  else if (isGroupDirect(view)) title = view.participants.map((u) => u.fullName).sort().join(', ');

  let subtitle = `${sender.fullName}:`;
  if (trigger === 'mentioned') {
    subtitle = view.mentionedGroup ? `${sender.fullName} mentioned @${view.mentionedGroup.name}:` : `${sender.fullName} mentioned you:`;
  } else if (trigger.includes('wildcard_mentioned')) {
    subtitle = `${sender.fullName} mentioned everyone:`;
  } else if (message.type === 'private' && !isGroupDirect(view)) {
    subtitle = '';
  }
  return { title, subtitle, body: mobilePushContent(message.renderedContent).content };
}

/** The `event: "remove"` payload taking back notifications of `messageIds` (ascending). */
export function removalPayload(realm: Realm, userId: number, messageIds: readonly number[]): PushData {
  return {
    ...basePayload(realm, userId),
    event: 'remove',
    zulip_message_ids: messageIds.join(','),
    // Clients from before 2019 read only this one field.
    zulip_message_id: messageIds[0]!,
  };
}
