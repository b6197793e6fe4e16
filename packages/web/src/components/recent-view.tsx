/** Recent conversations: the latest messages of every conversation, grouped, newest first; live messages move theirs to the top. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { groupConversations } from '../lib/conversations';
import { conversationName, personName } from '../lib/names';
import { messageTime } from '../lib/time';
import { useStore } from '../lib/use-store';
import { viewToHash } from '../narrow/hash';
import { mergeMessages } from '../stores/message-list';
import type { Message } from '../stores/types';

export function RecentView() {
  const { client, chat } = useWorkspace();
  const subscriptions = useStore(chat.subscriptions);
  const people = useStore(chat.people);
  const unread = useStore(chat.unread);
  const list = useStore(chat.messageList);
  const [messages, setMessages] = useState<Message[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const channelName = (id: number) => subscriptions.get(id)?.name;

  useEffect(() => {
    // The combined feed's list receives live messages while this view is open.
    chat.messageList.set({ view: { kind: 'feed' }, messages: [], foundOldest: false, foundNewest: true, loading: false });
    client.getMessages({ anchor: 'newest', num_before: 400, num_after: 0, narrow: [], client_gravatar: true } as never).then(
      (answer) => setMessages((answer as unknown as { messages: Message[] }).messages),
      (failure: Error) => setError(failure.message),
    );
  }, [client, chat]);

  const conversations = useMemo(() => groupConversations(mergeMessages(messages ?? [], list.messages), chat.ownId), [messages, list, chat]);
  const unreadByKey = useMemo(() => {
    const counts = new Map<string, number>();
    for (const place of unread.places.values()) {
      const key = place.kind === 'stream' ? `c${place.channelId}:${place.topic.toLowerCase()}` : `d${place.key}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }, [unread]);

  return (
    <section class="recent" aria-labelledby="view-title">
      <h1 id="view-title" class="view-title">
        Recent conversations
      </h1>
      {error && <p role="alert">{error}</p>}
      {!messages && !error && <p>Loading…</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Conversation</th>
            <th scope="col">Participants</th>
            <th scope="col">Unread</th>
            <th scope="col">Last message</th>
          </tr>
        </thead>
        <tbody>
          {conversations.map((conversation) => {
            const target =
              conversation.kind === 'channel'
                ? { kind: 'channel' as const, channelId: conversation.channelId!, topic: conversation.topic! }
                : { kind: 'dm' as const, userIds: conversation.userIds! };
            const title =
              conversation.kind === 'channel'
                ? `#${channelName(conversation.channelId!) ?? conversation.channelId} › ${conversation.topic}`
                : conversationName(people, conversation.userIds!);
            return (
              <tr key={conversation.key}>
                <td>
                  <a href={viewToHash(target, channelName)}>{title}</a>
                </td>
                <td>{conversation.senders.map((id) => personName(people, id)).join(', ')}</td>
                <td>{unreadByKey.get(conversation.key) ?? ''}</td>
                <td>{messageTime(conversation.lastTimestamp, false).text}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
