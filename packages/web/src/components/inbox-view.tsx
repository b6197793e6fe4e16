/** Inbox: every conversation with unread messages, channels' topics and direct conversations, with counts. */
import { useMemo } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { conversationName } from '../lib/names';
import { useStore } from '../lib/use-store';
import { viewToHash } from '../narrow/hash';

export function InboxView() {
  const { chat, client } = useWorkspace();
  const unread = useStore(chat.unread);
  const subscriptions = useStore(chat.subscriptions);
  const people = useStore(chat.people);
  const channelName = (id: number) => subscriptions.get(id)?.name;

  const { channels, dms } = useMemo(() => {
    const byChannel = new Map<number, Map<string, { topic: string; count: number }>>();
    const byDm = new Map<string, number>();
    for (const place of unread.places.values()) {
      if (place.kind === 'dm') {
        byDm.set(place.key, (byDm.get(place.key) ?? 0) + 1);
        continue;
      }
      const topics = byChannel.get(place.channelId) ?? new Map();
      const entry = topics.get(place.topic.toLowerCase()) ?? { topic: place.topic, count: 0 };
      entry.count += 1;
      topics.set(place.topic.toLowerCase(), entry);
      byChannel.set(place.channelId, topics);
    }
    return { channels: [...byChannel.entries()], dms: [...byDm.entries()] };
  }, [unread]);

  const empty = channels.length === 0 && dms.length === 0;
  return (
    <section class="inbox" aria-labelledby="view-title">
      <h1 id="view-title" class="view-title">
        Inbox
      </h1>
      {empty ? (
        <p class="empty">You have no unread messages.</p>
      ) : (
        <button type="button" onClick={() => client.markAllAsRead().catch(() => undefined)}>
          Mark all as read
        </button>
      )}
      {dms.length > 0 && (
        <section aria-label="Direct messages">
          <h2>Direct messages</h2>
          <ul>
            {dms.map(([key, count]) => {
              const userIds = key.split(',').map(Number);
              return (
                <li key={key}>
                  <a href={viewToHash({ kind: 'dm', userIds })}>
                    {conversationName(people, userIds)} <span class="count">{count}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {channels.map(([channelId, topics]) => (
        <section key={channelId} aria-label={`#${channelName(channelId) ?? channelId}`}>
          <h2>
            <a href={viewToHash({ kind: 'channel', channelId }, channelName)}>#{channelName(channelId) ?? channelId}</a>
          </h2>
          <ul>
            {[...topics.values()].map((entry) => (
              <li key={entry.topic}>
                <a href={viewToHash({ kind: 'channel', channelId, topic: entry.topic }, channelName)}>
                  {entry.topic} <span class="count">{entry.count}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
