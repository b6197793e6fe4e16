import { ok } from 'neverthrow';
import type { Ctx } from '../context.js';

/**
 * Hands committed outbox mail to the context's mailer and marks it sent. With no mailer
 * configured, mail stays pending in the outbox. A failed delivery stays pending too. Among
 * several processes (`ctx.cluster`) one flushes at a time, so that no mail goes out twice; a
 * flush called while another node's runs is skipped (that one sends what is pending).
 */
export async function flushOutbox(ctx: Ctx): Promise<void> {
  if (!ctx.mailer) return;
  if (ctx.cluster) await ctx.cluster.jobs.runExclusive('flushing the outbox', 0, () => sendPending(ctx));
  else await sendPending(ctx);
}

async function sendPending(ctx: Ctx): Promise<void> {
  const mailer = ctx.mailer!;
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
