/** `n`: the next topic with unread messages after the open one, in channel-ID then topic order (the reference walks its sidebar order). */
import type { MessageView } from '../narrow/view';
import type { UnreadState } from '../stores/unread';

export function nextUnreadTopic(unread: UnreadState, current: MessageView): { channelId: number; topic: string } | undefined {
  const topics = new Map<string, { channelId: number; topic: string; firstId: number }>();
  for (const [id, place] of unread.places) {
    if (place.kind !== 'stream') continue;
    const key = `${place.channelId}:${place.topic.toLowerCase()}`;
    const known = topics.get(key);
    if (!known || id < known.firstId) topics.set(key, { channelId: place.channelId, topic: place.topic, firstId: id });
  }
  const ordered = [...topics.values()].sort((a, b) => a.firstId - b.firstId);
  const isCurrent = (entry: { channelId: number; topic: string }) =>
    current.kind === 'channel' && current.channelId === entry.channelId && current.topic?.toLowerCase() === entry.topic.toLowerCase();
  const next = ordered.find((entry) => !isCurrent(entry));
  return next && { channelId: next.channelId, topic: next.topic };
}
