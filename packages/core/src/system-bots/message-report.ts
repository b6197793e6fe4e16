/**
 * The text of a message report, as the reference's send_message_report writes it: who
 * reported whose message (and to whom, for direct messages) and when, the reason and the
 * reporter's description in a quote, and the reported message in a collapsed spoiler with a
 * link to it. Moderators read it in the moderation request channel, in a topic named after
 * the reported user.
 */
import { EMPTY_TOPIC_DISPLAY_NAME } from '../messages/normalize.js';
import { channelMessageNearPath, channelMessageUrl, directMessageReportUrl } from '../messages/urls.js';
import { REPORT_TYPES, type ReportType } from '../schemas/message-report.js';
import type { Message, Realm, Stream, User } from '../storage/types.js';
import { breaksLinkSyntax, escapeLinkText, globalTime, listOf, silentMention, unusedFence } from './syntax.js';

/** Room the reference keeps for the report's own text and the description (MAX_REPORT_MESSAGE_SNIPPET_LENGTH). */
const REPORT_OVERHEAD = 1000 + 500;
const TRUNCATED = '\n[message truncated]';

/** The reported message and what its report names. */
export interface ReportSubject {
  message: Message;
  sender: Pick<User, 'id' | 'fullName'>;
  /** The channel of a channel message. */
  stream?: Pick<Stream, 'id' | 'name'>;
  /** The participants of a direct message (the sender included). */
  participants?: ReadonlyArray<Pick<User, 'id' | 'fullName'>>;
}

export interface ReportRequest {
  reporter: Pick<User, 'id' | 'fullName'>;
  reportType: ReportType;
  description: string;
}

/** get_message_link_syntax: `#**channel>topic@id**`, or a Markdown link when the names would break it. */
export function messageLinkSyntax(stream: Pick<Stream, 'id' | 'name'>, topic: string, messageId: number): string {
  if (!breaksLinkSyntax(stream.name) && !breaksLinkSyntax(topic)) return `#**${stream.name}>${topic}@${messageId}**`;
  const text = `#${escapeLinkText(stream.name)} > ${escapeLinkText(topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : topic)} @ 💬`;
  return `[${text}](${channelMessageNearPath(stream, topic, messageId)})`;
}

/** The topic of a report: named after the reported user, or "" in a channel without topics. */
export const reportTopic = (sender: Pick<User, 'fullName'>, emptyTopicOnly: boolean) => (emptyTopicOnly ? '' : `${sender.fullName} moderation`);

/** The report message's content (before the usual normalisation of a message). */
export function messageReportContent(realm: Realm, subject: ReportSubject, request: ReportRequest, maxMessageLength: number): string {
  const { message, sender } = subject;
  const reporter = silentMention(request.reporter);
  const reported = silentMention(sender);
  const when = globalTime(message.dateSent);
  let header = `${reporter} reported a message sent by ${reported} at ${when}.`;
  let original: string;
  if (message.type === 'stream') {
    original = `Original message at ${messageLinkSyntax(subject.stream!, message.topic, message.id)}`;
  } else {
    const participants = subject.participants ?? [];
    if (participants.length > 2) {
      const others = participants.filter((p) => p.id !== sender.id).map(silentMention);
      header = `${reporter} reported a message sent by ${reported} to ${listOf(others)} at ${when}.`;
    } else if (sender.id === request.reporter.id) {
      // Reporting one's own one-on-one message: the report says to whom it went.
      const other = participants.find((p) => p.id !== sender.id);
      header = `${reporter} reported a message sent by ${reported} to ${other ? silentMention(other) : reporter} at ${when}.`;
    }
    original = `[Original message](${directMessageReportUrl(realm, participants.map((p) => p.id), message.id)})`;
  }
  const snippetMax = maxMessageLength - REPORT_OVERHEAD;
  const points = [...message.content];
  const snippet = points.length > snippetMax ? points.slice(0, snippetMax - TRUNCATED.length).join('') + TRUNCATED : message.content;
  const fence = unusedFence(snippet);
  return [
    header,
    '```quote',
    `**${REPORT_TYPES[request.reportType]}**. ${request.description}`,
    '```',
    '',
    `${fence} spoiler ${original}`,
    snippet,
    fence,
  ].join('\n');
}

/**
 * The Notification Bot's direct message to the reporter once the report is posted (the newest
 * reference's send_report_confirmation_dm): which message, and the reason in lower case.
 */
export function reportConfirmationContent(realm: Realm, subject: ReportSubject, reportType: ReportType): string {
  const { message } = subject;
  const url =
    message.type === 'stream'
      ? channelMessageUrl(realm, subject.stream!, message.topic, message.id)
      : directMessageReportUrl(realm, (subject.participants ?? []).map((p) => p.id), message.id);
  return `You reported [a message](${url}) for ${REPORT_TYPES[reportType].toLowerCase()}.`;
}
