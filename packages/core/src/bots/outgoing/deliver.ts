/**
 * One delivery of a message to an outgoing webhook bot, and what follows from its outcome, with
 * the reference's texts (zerver/lib/outgoing_webhook.py): the service's answer is posted where the
 * message was; a failure posts "Failure! …" there and tells the bot's owner why; a timeout or a
 * connection error is retried a few times before the bot is declared unavailable.
 */
import type { Ctx } from '../../context.js';
import { botProfile } from '../profile.js';
import type { DeliveryJob } from './job.js';
import type { OutgoingWebhookOptions } from './options.js';
import { attempt, genericPayload, slackPayload } from './request.js';
import { sendAsBot } from './reply.js';
import { answerContent, ownerNotice } from './texts.js';

/** `retry`: the job should go round again (its failedTries already counted). */
export type DeliveryResult = 'done' | 'retry';

/**
 * Delivers `job` once: nothing when the bot is gone, deactivated or has no service; otherwise
 * one request and what its outcome calls for. Resolves 'retry' when the job should be queued
 * again; never rejects for a failure of the bot's server.
 */
export async function deliver(ctx: Ctx, options: OutgoingWebhookOptions, job: DeliveryJob, stop: AbortSignal): Promise<DeliveryResult> {
  const found = await ctx.storage.read(async (tx) => {
    const realm = await tx.realms.byId(job.realmId);
    const bot = await tx.users.byId(job.realmId, job.botId);
    if (!realm || realm.deactivated || !bot?.isActive || bot.botType !== 3) return undefined;
    const profile = await botProfile(tx, realm.id, bot.id);
    return profile.service ? { realm, bot, service: profile.service } : undefined;
  });
  if (!found) return 'done';
  const { realm, bot, service } = found;
  const fail = (text: string) => sendAsBot(ctx, job, { to: 'conversation' }, `Failure! ${text}`);
  const notify = (details: Parameters<typeof ownerNotice>[2]) => sendAsBot(ctx, job, { to: 'owner' }, ownerNotice(job, bot.fullName, details));

  const slack = service.interface === 2;
  if (slack && job.message.type === 'private') {
    await fail("Slack outgoing webhooks don't support direct messages.");
    return 'done';
  }
  const body = slack ? slackPayload(job, realm, service) : genericPayload(job, bot, service);
  const outcome = await attempt(options, service.baseUrl, body, stop);
  if (stop.aborted) return 'done';

  const retry = async (reason: string): Promise<DeliveryResult> => {
    job.failedTries += 1;
    if (job.failedTries <= options.maxRetries) return 'retry';
    await fail('Bot is unavailable');
    await notify({ failure: reason });
    return 'done';
  };
  switch (outcome.kind) {
    case 'timeout':
      return retry(`Request timed out after ${options.timeoutMs / 1000} seconds.`);
    case 'connection':
      return retry('A connection error occurred. Is my bot server down?');
    case 'exception':
      await fail(`An exception of type *${outcome.name}* occurred for message \`${job.message.content}\`! See the server logs for more information.`);
      await notify({ exception: outcome });
      return 'done';
    case 'too-large':
      await fail(`The response is larger than ${options.maxResponseBytes} bytes.`);
      await notify({ status: outcome.status, failure: `The response was larger than the ${options.maxResponseBytes} bytes allowed.` });
      return 'done';
    case 'response':
      break;
  }
  if (outcome.status < 200 || outcome.status > 299) {
    await fail(`Third party responded with ${outcome.status}`);
    await notify({ status: outcome.status, payload: { text: outcome.body, bytes: true } });
    return 'done';
  }
  const answer = answerContent(outcome.body, slack);
  let error = answer.error;
  if (answer.content !== undefined) {
    const sent = await sendAsBot(ctx, job, { to: 'conversation' }, answer.content);
    if (sent.isErr()) error = sent.error.msg;
  }
  if (error !== undefined) {
    await fail(error);
    const failure = `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error}`;
    await notify({ failure, payload: { text: outcome.body, bytes: false } });
  }
  return 'done';
}
