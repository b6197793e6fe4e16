/** Shared pieces of the message report tests: a realm with a moderation channel, reports, and what they posted. */
import { type ApiMessage, doReportMessage, doUpdateRealm, getMessages, type Message, type User } from '@teamchat/core';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channel, channelWorld, subscribe } from './channel-helpers.js';

export interface ReportWorld extends ChannelWorld {
  moderationChannelId: number;
}

/** A realm whose private "moderation" channel (owner and moderator) takes reports; members share "general". */
export async function reportWorld(): Promise<ReportWorld> {
  const c = await channelWorld();
  await subscribe(c.w, c.w.owner, ['moderation'], { invite_only: true, principals: [c.w.owner.id, c.moderator.id] });
  await subscribe(c.w, c.w.owner, ['general'], { principals: [c.w.owner.id, c.member.id, c.other.id] });
  const moderationChannelId = (await channel(c.w, 'moderation')).id;
  must(await doUpdateRealm(c.w.ctx, c.w.as(c.w.owner), { moderation_request_channel_id: moderationChannelId }));
  return { ...c, moderationChannelId };
}

/** POST /messages/{id}/report as `user`. */
export const report = (c: ChannelWorld, user: User, messageId: number, reportType: string, description?: string) =>
  doReportMessage.fromTransport(c.w.ctx, c.w.as(user), {
    message_id: String(messageId),
    report_type: reportType,
    ...(description === undefined ? {} : { description }),
  });

/** The moderation channel's messages as its subscriber the owner reads them (raw content), oldest first. */
export async function postedReports(c: ReportWorld): Promise<ApiMessage[]> {
  const page = must(
    await getMessages(c.w.ctx, c.w.as(c.w.owner), {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      apply_markdown: false,
      allow_empty_topic_name: true,
      narrow: [['channel', c.moderationChannelId]],
    }),
  );
  return page.messages;
}

/** The stored message. */
export const stored = (c: ChannelWorld, id: number) => c.w.ctx.storage.read(async (tx) => (await tx.messages.byId(c.w.realm.id, id))!);

/** `<time:…>` of a message's send time, as the report prints it. */
export const sentAt = (message: Message) => `<time:${new Date(message.dateSent * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
