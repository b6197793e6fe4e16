/**
 * POST /messages/{message_id}/report (FL 382; the reference's views/message_report.py and
 * lib/message_report.py): a user who can read a message reports it to the realm's moderators.
 * The Notification Bot posts the report to the moderation request channel, in the reported
 * user's topic, then tells the reporter by direct message (the newest reference does); both
 * commit and are announced together, and nothing else is stored. Any readable message may be
 * reported, one's own included (the reference words the report for that case). When the report
 * cannot be posted the request fails (FL 511) and no confirmation is sent.
 */
import { err, ok } from 'neverthrow';
import { messageReportFailed, messageReportingDisabled, reportExplanationRequired } from '../errors.js';
import { accessMessage } from '../messages/access.js';
import { effectiveTopicsPolicy } from '../messages/topics-policy.js';
import { type Actor, userOperation } from '../operation.js';
import { ReportMessageParams } from '../schemas/message-report.js';
import { realmSetting } from '../settings/realm-settings.js';
import { messageReportContent, reportConfirmationContent, type ReportSubject, reportTopic } from '../system-bots/message-report.js';
import { sendNotificationBotMessage } from '../system-bots/send.js';
import type { Message, Realm, Tx } from '../storage/types.js';
import { transactionAs } from '../transaction.js';

/** The realm's moderation request channel setting; -1 (or null) when none is configured. */
const NO_CHANNEL = -1;

/** POST /messages/{message_id}/report: answers `{}` once the report is posted. */
export const doReportMessage = userOperation(ReportMessageParams, async (ctx, requester: Actor, params) => {
  if (params.report_type === 'other' && params.description === '') return err(reportExplanationRequired());
  return transactionAs(ctx, requester, async (tx, actor) => {
    const channelId = realmSetting(actor.realm, 'moderation_request_channel_id') as number | null;
    if (channelId === null || channelId === NO_CHANNEL) return err(messageReportingDisabled());
    const access = await accessMessage(tx, actor.user, params.message_id);
    if (access.isErr()) return err(access.error);
    const channel = await tx.streams.byId(actor.realm.id, channelId);
    // A channel deleted or archived since it was chosen: the report has nowhere to go.
    if (!channel || channel.isArchived) return err(messageReportFailed());
    const subject = await reportSubject(tx, actor.realm, access.value);
    if (!subject) return err(messageReportFailed());
    const content = messageReportContent(
      actor.realm,
      subject,
      { reporter: actor.user, reportType: params.report_type, description: params.description },
      ctx.config.maxMessageLength,
    );
    const topic = reportTopic(subject.sender, (await effectiveTopicsPolicy(tx, channel)) === 'empty_topic_only');
    const sent = await sendNotificationBotMessage(ctx, tx, actor.realm, { to: { channelId: channel.id, topic }, content });
    if (sent.isErr()) return err(messageReportFailed());
    // The reporter learns the report went out; it cannot fail (the reporter is active).
    const confirmation = reportConfirmationContent(actor.realm, subject, params.report_type);
    await sendNotificationBotMessage(ctx, tx, actor.realm, { to: { userIds: [actor.user.id] }, content: confirmation });
    return ok({});
  });
});

/** The reported message with its sender and, by kind, its channel or its participants. */
async function reportSubject(tx: Tx, realm: Realm, message: Message): Promise<ReportSubject | undefined> {
  if (message.type === 'stream') {
    const [sender, stream] = [await tx.users.byId(realm.id, message.senderId), await tx.streams.byId(realm.id, message.streamId!)];
    return sender && stream ? { message, sender, stream } : undefined;
  }
  const ids = (message.dmKey ?? '').split(',').map(Number);
  const participants = await tx.users.list(realm.id, [...new Set([...ids, message.senderId])]);
  const sender = participants.find((u) => u.id === message.senderId);
  return sender ? { message, sender, participants } : undefined;
}
