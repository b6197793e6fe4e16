/** "Bob is typing…" under the open conversation; indications expire on their own, so it re-checks every few seconds. */
import { useEffect, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { conversationName } from '../lib/names';
import { useStore } from '../lib/use-store';
import type { MessageView } from '../narrow/view';
import { dmConversation, topicConversation, typistsIn } from '../stores/typing';

export function TypingIndicator({ view }: { view: MessageView }) {
  const { chat } = useWorkspace();
  const typing = useStore(chat.typing);
  const people = useStore(chat.people);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 3000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => setNow(Date.now()), [typing]);

  const key =
    view.kind === 'channel' && view.topic !== undefined
      ? topicConversation(view.channelId, view.topic)
      : view.kind === 'dm'
        ? dmConversation(view.userIds, chat.ownId)
        : undefined;
  const typists = key ? typistsIn(typing, key, chat.ownId, now) : [];
  return (
    <p class="typing" aria-live="polite">
      {typists.length > 0 ? `${conversationName(people, typists)} ${typists.length > 1 ? 'are' : 'is'} typing…` : ''}
    </p>
  );
}
