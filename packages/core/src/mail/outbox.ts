import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';

/**
 * Hands committed outbox mail to the context's mailer and marks it sent. With no mailer
 * configured, mail stays pending in the outbox. A failed delivery stays pending too.
 */
export async function flushOutbox(ctx: Ctx): Promise<void> {
  const mailer = ctx.mailer;
  if (!mailer) return;
  const pending = await ctx.storage.read((tx) => tx.outbox.pending());
  for (const mail of pending) {
    try {
      await mailer.deliver(mail);
    } catch {
      continue;
    }
    await ctx.storage.transaction(async (tx) => ok(await tx.outbox.markSent(mail.id, ctx.clock.now())));
  }
}
