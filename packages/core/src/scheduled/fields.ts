/**
 * How a scheduled message is validated against its target (like a send, FACTS.md 6.3) and how
 * it looks on the wire (SHAPES.md 5.5).
 */
import { err, ok, type Result } from 'neverthrow';
import { renderAs } from '../messages/render-as.js';
import { channelTarget, directTarget } from '../messages/targets.js';
import type { Ctx } from '../context.js';
import { type ApiError, badRequest } from '../errors.js';
import { normalizeContent } from '../messages/normalize.js';
import type { Realm, ScheduledMessage, ScheduledMessageFields, Tx, User } from '../storage/types.js';

export const notInFuture = () => badRequest('Scheduled delivery time must be in the future.');

/** A message scheduled to be sent later, as GET /scheduled_messages and its events carry it. */
export interface ApiScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  /** The channel's ID, or the recipients' user IDs. */
  to: number | number[];
  /** Channel messages only. */
  topic?: string;
  content: string;
  rendered_content: string;
  /** UNIX seconds. */
  scheduled_delivery_timestamp: number;
  /** Whether sending it at its time failed (it stays, for the user to fix). */
  failed: boolean;
}

/** The record of responses, events and the register section: `topic` only for channel messages. */
export function formatScheduledMessage(m: ScheduledMessage): ApiScheduledMessage {
  return {
    scheduled_message_id: m.id,
    type: m.type,
    to: m.type === 'stream' ? m.streamId! : m.recipientIds,
    ...(m.type === 'stream' ? { topic: m.topic } : {}),
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: m.deliveryTimestamp,
    failed: m.failed,
  };
}

/** A scheduled message's addressee as the client sends it (`to` as POST /messages takes it). */
export interface ScheduledInput {
  type: 'stream' | 'private';
  to: string;
  topic: string | undefined;
  content: string;
  deliveryTimestamp: number;
}

/** Validates as POST /messages would for `sender` now, and renders the content. */
export async function checkScheduled(ctx: Ctx, tx: Tx, realm: Realm, sender: User, input: ScheduledInput): Promise<Result<ScheduledMessageFields, ApiError>> {
  const content = normalizeContent(input.content, ctx.config);
  if (content.isErr()) return err(content.error);
  const target =
    input.type === 'stream'
      ? await channelTarget(ctx, tx, realm, sender, input.to, input.topic)
      : await directTarget(tx, realm, sender, input.to);
  if (target.isErr()) return err(target.error);
  const rendered = await renderAs(tx, realm, sender, content.value, ctx.clock.now());
  const t = target.value;
  const base = { content: content.value, renderedContent: rendered.html, deliveryTimestamp: input.deliveryTimestamp, failed: false };
  if (t.kind === 'stream') return ok({ ...base, type: 'stream', streamId: t.stream.id, recipientIds: [], topic: t.topic });
  const others = t.participants.map((u) => u.id).filter((id) => id !== sender.id);
  return ok({ ...base, type: 'private', streamId: null, recipientIds: others.length ? others : [sender.id], topic: '' });
}
