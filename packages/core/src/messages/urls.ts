/**
 * Narrow URLs of the web app (FL 508 `message_url`, `message_link`): hash components encoded as
 * the reference does (percent-encoding with `.` for `%`, so that URLs survive Markdown).
 */
import type { Realm } from '../storage/types.js';

export const encodeHashComponent = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/\./g, '%2E').replace(/%/g, '.');

const channelSlug = (id: number, name: string) => `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

export function channelMessageUrl(realm: Realm, stream: { id: number; name: string }, topic: string, messageId: number): string {
  return `${realm.url}/#narrow/channel/${channelSlug(stream.id, stream.name)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
}

export function directMessageUrl(realm: Realm, participantIds: readonly number[], messageId: number): string {
  const kind = participantIds.length > 2 ? 'group' : 'dm';
  return `${realm.url}/#narrow/dm/${participantIds.join(',')}-${kind}/near/${messageId}`;
}

/** `[#channel > topic @ 💬](url)`, the Markdown link clients paste for a channel message. */
export const channelMessageLink = (streamName: string, topic: string, url: string) => `[#${streamName} > ${topic} @ 💬](${url})`;

/**
 * A message's place in its topic as a path relative to the app (`#narrow/channel/…/with/{id}`):
 * the link of the reference's reminder text, which follows the message if it is moved.
 */
export const channelTopicWithPath = (stream: { id: number; name: string }, topic: string, messageId: number) =>
  `#narrow/channel/${channelSlug(stream.id, stream.name)}/topic/${encodeHashComponent(topic)}/with/${messageId}`;

/** The newest reference's direct-message link of a reminder: the participants' IDs with no `-dm`/`-group` suffix. */
export const directMessageNearUrl = (realm: Realm, participantIds: readonly number[], messageId: number) =>
  `${realm.url}/#narrow/dm/${participantIds.join(',')}/near/${messageId}`;

/** A channel message's narrow path relative to the app (`#narrow/channel/…/near/{id}`), as Markdown fallback links use it. */
export const channelMessageNearPath = (stream: { id: number; name: string }, topic: string, messageId: number) =>
  `#narrow/channel/${channelSlug(stream.id, stream.name)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;

/** The newest reference's pm_message_url: participants' IDs, `-group` from three on, no `-dm`. */
export const directMessageReportUrl = (realm: Realm, participantIds: readonly number[], messageId: number) =>
  `${realm.url}/#narrow/dm/${[...participantIds].sort((a, b) => a - b).join(',')}${participantIds.length >= 3 ? '-group' : ''}/near/${messageId}`;
