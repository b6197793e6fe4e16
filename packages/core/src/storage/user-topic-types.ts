/**
 * The user-topic part of the storage contract: each user's visibility policy for a channel's
 * topic (muted, unmuted, followed). Topics compare as message topics do (ASCII case folded).
 * See types.ts for the isolation rules every store follows.
 */

/** 0 none (no row), 1 muted, 2 unmuted, 3 followed (openapi update_user_topic_request). */
export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;
/** A topic's visibility for a user: one of VISIBILITY_POLICY. */
export type VisibilityPolicy = 0 | 1 | 2 | 3;

/** A user's visibility policy for one topic. */
export interface UserTopic {
  userId: number;
  streamId: number;
  /** The spelling given when the row was created; a later change of policy keeps it. */
  topic: string;
  visibilityPolicy: 1 | 2 | 3;
  /** Unix seconds of the last change. */
  lastUpdated: number;
}

/** Users' topic visibility policies (muted, unmuted, followed). */
export interface UserTopicStore {
  /** The user's rows, by stream then topic. */
  list(realmId: number, userId: number): Promise<UserTopic[]>;
  /** Every user's row for one topic of a channel (for moving policies with the topic). */
  forTopic(realmId: number, streamId: number, topic: string): Promise<UserTopic[]>;
  /**
   * Sets the user's policy for the topic (0 removes the row). Returns false, writing nothing,
   * when the policy already is that value (or there is no row to remove), or when the user or
   * channel is not in the realm.
   */
  set(realmId: number, userId: number, streamId: number, topic: string, policy: VisibilityPolicy, lastUpdated: number): Promise<boolean>;
}
