/**
 * The HTTP side of a delivery: the request body in the bot's interface (the reference's
 * GenericOutgoingWebhookService and SlackOutgoingWebhookService), and one bounded attempt.
 */
import type { BotService, Realm, User } from '../../storage/types.js';
import type { DeliveryJob } from './job.js';
import type { OutgoingWebhookOptions } from './options.js';

/** What one attempt came to. */
export type Attempt =
  | { kind: 'response'; status: number; body: string }
  | { kind: 'timeout' }
  | { kind: 'connection' }
  | { kind: 'too-large'; status: number }
  | { kind: 'exception'; name: string; message: string };

/** The Zulip-format payload: the message, its raw content as `data`, and who it was for. */
export function genericPayload(job: DeliveryJob, bot: User, service: BotService): string {
  return JSON.stringify({
    data: job.message.content,
    message: job.message,
    bot_email: bot.deliveryEmail,
    bot_full_name: bot.fullName,
    token: service.token,
    trigger: job.trigger,
  });
}

/** Slack's legacy outgoing webhook form fields; channel messages only (the caller checks). */
export function slackPayload(job: DeliveryJob, realm: Realm, service: BotService): URLSearchParams {
  const m = job.message;
  return new URLSearchParams([
    ['token', service.token],
    ['team_id', `T${realm.id}`],
    ['team_domain', new URL(realm.url).host],
    ['channel_id', `C${String(m.stream_id)}`],
    ['channel_name', String(m.display_recipient)],
    ['thread_ts', String(m.timestamp)],
    ['timestamp', String(m.timestamp)],
    ['user_id', `U${String(m.sender_id)}`],
    ['user_name', String(m.sender_full_name)],
    ['text', m.content],
    ['trigger_word', job.trigger],
    ['service_id', String(job.botId)],
  ]);
}

/**
 * POSTs `body` to `url` once, within the timeout, reading at most maxResponseBytes of the
 * answer. Never throws: every failure is an Attempt the caller answers as the reference does.
 */
export async function attempt(options: OutgoingWebhookOptions, url: string, body: string | URLSearchParams, stop: AbortSignal): Promise<Attempt> {
  if (!URL.canParse(url)) return { kind: 'exception', name: 'InvalidURL', message: `Invalid URL '${url}'` };
  const timer = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([timer, stop]);
  const headers = { 'user-agent': 'TeamchatOutgoingWebhook', ...(typeof body === 'string' && { 'content-type': 'application/json' }) };
  try {
    const response = await options.fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    const text = await readBounded(response, options.maxResponseBytes);
    if (text === null) return { kind: 'too-large', status: response.status };
    return { kind: 'response', status: response.status, body: text };
  } catch (error) {
    if (timer.aborted) return { kind: 'timeout' };
    if (stop.aborted) return { kind: 'exception', name: 'Shutdown', message: 'the server is shutting down' };
    if (error instanceof TypeError) return { kind: 'connection' };
    const e = error instanceof Error ? error : new Error(String(error));
    return { kind: 'exception', name: e.name, message: e.message };
  }
}

/** The body as text, or null once it passes `limit` bytes (the rest is not read). */
async function readBounded(response: Response, limit: number): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
