/** Each channel's topics, newest activity first: fetched per channel (GET /users/me/{id}/topics) and bumped by live messages. */
export interface Topic {
  name: string;
  maxId: number;
}

export type TopicsState = ReadonlyMap<number, readonly Topic[]>;

function sorted(topics: Topic[]): Topic[] {
  return topics.sort((a, b) => b.maxId - a.maxId);
}

export function setChannelTopics(state: TopicsState, channelId: number, topics: Array<{ name: string; max_id: number }>): TopicsState {
  return new Map(state).set(channelId, sorted(topics.map((topic) => ({ name: topic.name, maxId: topic.max_id }))));
}

/** A message in a topic: the topic moves to the top (or appears). Channels never fetched stay unfetched. */
export function bumpTopic(state: TopicsState, channelId: number, name: string, messageId: number): TopicsState {
  const topics = state.get(channelId);
  if (!topics) return state;
  const others = topics.filter((topic) => topic.name.toLowerCase() !== name.toLowerCase());
  const previous = topics.find((topic) => topic.name.toLowerCase() === name.toLowerCase());
  return new Map(state).set(channelId, sorted([...others, { name, maxId: Math.max(messageId, previous?.maxId ?? 0) }]));
}

/** A topic renamed or moved away as a whole: forget the channel's list, to be fetched again. */
export function forgetChannel(state: TopicsState, channelId: number): TopicsState {
  if (!state.has(channelId)) return state;
  const next = new Map(state);
  next.delete(channelId);
  return next;
}
