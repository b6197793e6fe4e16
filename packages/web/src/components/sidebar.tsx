/**
 * The left sidebar: the standard views, subscribed channels with unread counts (topics under the
 * open channel), and direct conversations.
 */
import { useEffect, useMemo } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { conversationName } from '../lib/names';
import { useStore } from '../lib/use-store';
import { viewToHash } from '../narrow/hash';
import type { View } from '../narrow/view';
import { setChannelTopics } from '../stores/topics';
import { countUnread, topicKey } from '../stores/unread';
import { PeopleList } from './people-list';

function Count({ value, label }: { value: number | undefined; label?: string }) {
  if (!value) return null;
  return (
    <span class="count" title={label ?? `${value} unread`}>
      {value}
    </span>
  );
}

export function Sidebar() {
  const { chat, view: viewStore, client } = useWorkspace();
  const view = useStore(viewStore);
  const subscriptions = useStore(chat.subscriptions);
  const unread = useStore(chat.unread);
  const topics = useStore(chat.topics);
  const people = useStore(chat.people);
  const dmConversations = useStore(chat.dmConversations);
  const counts = useMemo(() => countUnread(unread), [unread]);
  const channelName = (id: number) => subscriptions.get(id)?.name;
  const href = (target: View) => viewToHash(target, channelName);
  const openChannel = view.kind === 'channel' ? view.channelId : undefined;

  // The open channel's topics, fetched once per channel (live messages keep them current).
  useEffect(() => {
    if (openChannel === undefined || topics.has(openChannel)) return;
    client.getStreamTopics({ stream_id: openChannel }).then(
      (answer) => chat.topics.update((current) => setChannelTopics(current, openChannel, (answer as unknown as { topics: Array<{ name: string; max_id: number }> }).topics)),
      () => undefined,
    );
  }, [openChannel, topics, client, chat]);

  const channels = [...subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  // Newest conversation first; unread ones never drop out.
  const dmKeys = new Set([...dmConversations.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => key));
  for (const key of counts.byDm.keys()) dmKeys.add(key);
  const current = (target: View) => (href(target) === href(view) ? 'page' : undefined);
  const standard: Array<[View, string, number | undefined]> = [
    [{ kind: 'inbox' }, 'Inbox', counts.total],
    [{ kind: 'recent' }, 'Recent conversations', undefined],
    [{ kind: 'feed' }, 'Combined feed', undefined],
    [{ kind: 'starred' }, 'Starred messages', undefined],
    [{ kind: 'mentioned' }, 'Mentions', counts.mentions],
  ];

  return (
    <aside class="sidebar" id="sidebar">
      <nav aria-label="Views">
        <ul>
          {standard.map(([target, label, count]) => (
            <li key={label}>
              <a href={href(target)} aria-current={current(target)}>
                {label} <Count value={count} />
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Channels">
        <h2>Channels</h2>
        <ul>
          {channels.map((channel) => (
            <li key={channel.stream_id}>
              <a
                href={href({ kind: 'channel', channelId: channel.stream_id })}
                aria-current={view.kind === 'channel' && view.channelId === channel.stream_id && view.topic === undefined ? 'page' : undefined}
              >
                <span class="swatch" style={{ background: channel.color }} aria-hidden="true" />
                {channel.name} <Count value={counts.byChannel.get(channel.stream_id)} />
              </a>
              {openChannel === channel.stream_id && (
                <ul class="topics" aria-label={`${channel.name}: conversations`}>
                  {(topics.get(channel.stream_id) ?? []).map((topic) => (
                    <li key={topic.name}>
                      <a
                        href={href({ kind: 'channel', channelId: channel.stream_id, topic: topic.name })}
                        aria-current={view.kind === 'channel' && view.topic?.toLowerCase() === topic.name.toLowerCase() ? 'page' : undefined}
                      >
                        {topic.name} <Count value={counts.byTopic.get(topicKey(channel.stream_id, topic.name))} />
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
        <a class="browse" href={href({ kind: 'channels' })} aria-current={current({ kind: 'channels' })}>
          Browse channels
        </a>
      </nav>
      <nav aria-label="Direct messages">
        <h2>Direct messages</h2>
        <ul>
          {[...dmKeys].map((key) => {
            const userIds = key.split(',').map(Number);
            return (
              <li key={key}>
                <a href={href({ kind: 'dm', userIds })} aria-current={current({ kind: 'dm', userIds })}>
                  {conversationName(people, userIds)} <Count value={counts.byDm.get(key)} />
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <PeopleList />
    </aside>
  );
}
