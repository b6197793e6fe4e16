import { err, ok } from 'neverthrow';
import { accessStreamById } from '../access/channels.js';
import { topicForClient } from '../messages/normalize.js';
import { type Actor, userOperation } from '../operation.js';
import { StreamTopicsParams } from '../schemas/message-edit.js';
import { readableBy } from './messages.js';

/**
 * GET /users/me/{stream_id}/topics: the channel's topics with their newest message ID, newest
 * first. A reader of the channel's whole history sees every topic; anyone else the topics of
 * the messages they received, with the newest of those.
 */
export const getStreamTopics = userOperation(StreamTopicsParams, async (ctx, actor: Actor, params) =>
  ctx.storage.read(async (tx) => {
    const access = await accessStreamById(tx, actor.user, params.stream_id);
    if (access.isErr()) return err(access.error);
    const readable = await readableBy(tx, actor.user);
    const all = await tx.messages.topics(actor.realm.id, params.stream_id);
    let topics = all;
    if (!readable.scope.sharedHistoryStreamIds.includes(params.stream_id)) {
      topics = [];
      for (const topic of all) {
        const mine = await tx.messages.window(
          readable.scope,
          [
            { kind: 'stream', streamId: params.stream_id, negated: false },
            { kind: 'topic', topic: topic.name, negated: false },
          ],
          { anchor: Number.MAX_SAFE_INTEGER, includeAnchor: false, numBefore: 1, numAfter: 0 },
        );
        if (mine.ids.length > 0) topics.push({ name: topic.name, maxId: mine.ids[0]! });
      }
      topics.sort((a, b) => b.maxId - a.maxId);
    }
    return ok({ topics: topics.map((t) => ({ name: topicForClient(t.name, params.allow_empty_topic_name), max_id: t.maxId })) });
  }),
);
