import { err, ok } from 'neverthrow';
import { accessStreamById } from '../access/channels.js';
import { isAdmin } from '../access/roles.js';
import { mustBeAdmin } from '../errors.js';
import { normalizeTopic } from '../messages/normalize.js';
import { type Actor, userOperation } from '../operation.js';
import { readableBy } from '../queries/messages.js';
import { DeleteTopicParams } from '../schemas/message-edit.js';
import { deleteMessages } from '../messages/delete.js';
import { transactionAs } from '../transaction.js';

/** Messages deleted per transaction (the reference's STREAM_MESSAGE_BATCH_SIZE). */
export const DELETE_TOPIC_BATCH_SIZE = 100;

/**
 * POST /streams/{stream_id}/delete_topic (API.md 4.9, FACTS.md 6.6): administrators delete the
 * messages of a topic (matched case-insensitively) that they may read, newest first, in
 * batches of their own transactions. A batch starts only within the time budget; when it ran
 * out with messages left the answer is `complete: false` and the client repeats the request.
 */
export const doDeleteTopic = userOperation(DeleteTopicParams, async (ctx, requester: Actor, params) => {
  const started = ctx.clock.now();
  const topic = normalizeTopic(params.topic_name, ctx.config);
  if (topic.isErr()) return err(topic.error);
  for (;;) {
    const batch = await transactionAs(ctx, requester, async (tx, actor) => {
      // Checked in every batch: a demotion between batches stops the deletion.
      if (!isAdmin(actor.user)) return err(mustBeAdmin());
      const access = await accessStreamById(tx, actor.user, params.stream_id);
      if (access.isErr()) return err(access.error);
      const readable = await readableBy(tx, actor.user);
      const newest = await tx.messages.window(
        readable.scope,
        [
          { kind: 'stream', streamId: params.stream_id, negated: false },
          { kind: 'topic', topic: topic.value, negated: false },
        ],
        { anchor: Number.MAX_SAFE_INTEGER, includeAnchor: false, numBefore: DELETE_TOPIC_BATCH_SIZE, numAfter: 0 },
      );
      await deleteMessages(ctx, tx, actor.realm, await tx.messages.byIds(actor.realm.id, newest.ids), actor.user);
      return ok({ more: !newest.foundOldest });
    });
    if (batch.isErr()) return err(batch.error);
    if (!batch.value.more) return ok({ complete: true });
    if (ctx.clock.now() - started >= ctx.config.deleteTopicTimeBudgetMs) return ok({ complete: false });
  }
});
