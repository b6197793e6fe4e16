/** Moving a whole topic: a new name, and optionally another channel (PATCH /messages/{id}, propagate_mode change_all). */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { useStore } from '../lib/use-store';
import type { Message } from '../stores/types';

export function MoveTopicForm({ message, onDone, onError }: { message: Message; onDone: () => void; onError: (failure: Error) => void }) {
  const { client, chat } = useWorkspace();
  const subscriptions = useStore(chat.subscriptions);
  const [topic, setTopic] = useState(message.subject);
  const [channelId, setChannelId] = useState(message.stream_id!);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const channels = [...subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <form
      class="move-topic"
      aria-label="Move topic"
      onSubmit={(event) => {
        event.preventDefault();
        const name = topic.trim();
        if (!name || (name === message.subject && channelId === message.stream_id)) return onDone();
        const params = { message_id: message.id, topic: name, propagate_mode: 'change_all', ...(channelId === message.stream_id ? {} : { stream_id: channelId }) };
        client.updateMessage(params as never).then(onDone, onError);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
      }}
    >
      <label>
        New topic name
        <input type="text" value={topic} required ref={input} onInput={(event) => setTopic((event.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        Move to channel
        <select value={String(channelId)} onChange={(event) => setChannelId(Number((event.currentTarget as HTMLSelectElement).value))}>
          {channels.map((channel) => (
            <option key={channel.stream_id} value={String(channel.stream_id)}>
              #{channel.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Move</button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
