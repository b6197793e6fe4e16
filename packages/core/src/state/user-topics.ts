import { legacyMutedTopics, visibleUserTopics } from '../messages/user-topic-policy.js';
import { topicForClient } from '../messages/normalize.js';
import { defineSection } from './sections.js';

/** The `user_topic` section (SHAPES.md 2.4): the user's topic visibility policies. */
export const userTopicSection = defineSection({
  key: 'user_topic',
  async fetch(_ctx, tx, { user }, options) {
    if (!user) return { user_topics: [] };
    const emptyTopicName = options.capabilities.has('empty_topic_name');
    return {
      user_topics: (await visibleUserTopics(tx, user)).map((row) => ({
        stream_id: row.streamId,
        topic_name: topicForClient(row.topic, emptyTopicName),
        last_updated: row.lastUpdated,
        visibility_policy: row.visibilityPolicy,
      })),
    };
  },
});

/** The legacy `muted_topics` (openapi register): only for clients that did not ask for `user_topic` by name. */
export const mutedTopicsSection = defineSection({
  key: 'muted_topics',
  async fetch(_ctx, tx, { user }, options) {
    if (options.wanted?.has('user_topic')) return {};
    return { muted_topics: user ? await legacyMutedTopics(tx, user) : [] };
  },
});
