import { doCreateScheduledMessage } from '@teamchat/core';
import { ok } from 'neverthrow';
import { must, type World } from '../helpers/core.js';

/**
 * Schedules `content` from the owner to channel 1 and moves it a minute into the past, straight
 * in the store (the API refuses past times): a message that fell due while no scheduler ran.
 */
export async function scheduleOverdue(w: World, content: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  must(await doCreateScheduledMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 1, topic: 't', content, scheduled_delivery_timestamp: now + 60 }));
  await w.ctx.storage.transaction(async (tx) => {
    const message = (await tx.scheduledMessages.list(w.realm.id, w.owner.id)).find((m) => m.content === content)!;
    await tx.scheduledMessages.update(w.realm.id, w.owner.id, message.id, { ...message, deliveryTimestamp: now - 60 });
    return ok(undefined);
  });
}
