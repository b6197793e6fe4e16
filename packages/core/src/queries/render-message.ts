/**
 * POST /messages/render: a preview of Markdown as the caller would send it, through the same
 * renderer and realm context as a sent message (mentions, channel links the caller may read,
 * custom emoji, linkifiers). Nothing is stored and nothing is announced.
 */
import { err, ok } from 'neverthrow';
import { renderAs } from '../messages/render-as.js';
import { badRequest } from '../errors.js';
import { type Actor, userOperation } from '../operation.js';
import { RenderMessageParams } from '../schemas/messages.js';

/** POST /messages/render: `{rendered}`, the HTML a message with this content would get. */
export const getRenderedMessage = userOperation(RenderMessageParams, async (ctx, actor: Actor, params) => {
  // The reference bounds content by MAX_MESSAGE_LENGTH (code points) before rendering anything;
  // unlike a send, which truncates, a preview of too long a text is refused.
  const limit = ctx.config.maxMessageLength;
  let length = 0;
  for (const _ of params.content) if (++length > limit) return err(badRequest(`content is too long (limit: ${limit} characters)`));
  const nowMs = ctx.clock.now();
  const rendered = await ctx.storage.read((tx) => renderAs(tx, actor.realm, actor.user, params.content, nowMs));
  return ok({ rendered: rendered.html });
});
