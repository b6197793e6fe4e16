/**
 * One message: its conversation header when the conversation changes, the sender, avatar and
 * time, the sanitized content, reactions, and the actions the user may take on it.
 */
import { useMemo, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { RESOLVED_PREFIX, conversationName, isResolved } from '../lib/names';
import { canDelete, canEdit, canMoveTopic } from '../lib/permissions';
import { sanitizeMessageHtml } from '../lib/sanitize';
import { messageTime } from '../lib/time';
import { useStore } from '../lib/use-store';
import { viewToHash } from '../narrow/hash';
import { dmPartners } from '../narrow/matches';
import type { MessageView } from '../narrow/view';
import type { Message } from '../stores/types';
import { Avatar } from './avatar';
import { MessageContent } from './message-content';
import { MoveTopicForm } from './move-topic-form';
import { Reactions } from './reactions';

function sameConversation(a: Message | undefined, b: Message): boolean {
  if (!a || a.type !== b.type) return false;
  if (b.type === 'stream') return a.stream_id === b.stream_id && a.subject.toLowerCase() === b.subject.toLowerCase();
  return JSON.stringify(a.display_recipient) === JSON.stringify(b.display_recipient);
}

function ConversationHeader({ message }: { message: Message }) {
  const { chat } = useWorkspace();
  const subscriptions = useStore(chat.subscriptions);
  const people = useStore(chat.people);
  const channelName = (id: number) => subscriptions.get(id)?.name;
  if (message.type === 'stream') {
    const name = channelName(message.stream_id!) ?? String(message.display_recipient);
    return (
      <h2 class="conversation-header">
        <a href={viewToHash({ kind: 'channel', channelId: message.stream_id! }, channelName)}>#{name}</a>
        {' › '}
        <a href={viewToHash({ kind: 'channel', channelId: message.stream_id!, topic: message.subject }, channelName)}>{message.subject}</a>
      </h2>
    );
  }
  const partners = dmPartners(message, chat.ownId);
  return (
    <h2 class="conversation-header">
      <a href={viewToHash({ kind: 'dm', userIds: partners })}>Direct messages with {conversationName(people, partners)}</a>
    </h2>
  );
}

export function MessageItem({ message, previous, view }: { message: Message; previous: Message | undefined; view: MessageView }) {
  const { chat, client, composeRequest } = useWorkspace();
  const realm = useStore(chat.realm);
  const settings = useStore(chat.userSettings);
  const [editing, setEditing] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [moving, setMoving] = useState(false);
  const html = useMemo(() => sanitizeMessageHtml(message.content), [message.content]);
  const time = messageTime(message.timestamp, settings.twenty_four_hour_time === true);
  const newConversation = !sameConversation(previous, message);
  const showHeader = newConversation && !(view.kind === 'channel' && view.topic !== undefined) && view.kind !== 'dm';
  const sameSender = !newConversation && previous?.sender_id === message.sender_id && message.timestamp - previous!.timestamp < 300;
  const nowSeconds = Date.now() / 1000;
  const starred = message.flags.includes('starred');
  const unread = !message.flags.includes('read');
  const fail = (failure: Error) => setError(failure.message);

  const startEdit = () => {
    setError(undefined);
    client.getMessage({ message_id: message.id, apply_markdown: false } as never).then(
      (answer) => setEditing((answer as unknown as { message: { content: string } }).message.content),
      fail,
    );
  };
  const saveEdit = (content: string) =>
    client.updateMessage({ message_id: message.id, content } as never).then(() => setEditing(undefined), fail);
  const remove = () => {
    if (confirm('Delete this message?')) client.deleteMessage({ message_id: message.id }).catch(fail);
  };
  const toggleStar = () =>
    client.updateMessageFlags({ messages: [message.id], op: starred ? 'remove' : 'add', flag: 'starred' } as never).catch(fail);
  const reply = () => {
    const to =
      message.type === 'stream'
        ? { kind: 'channel' as const, channelId: message.stream_id!, topic: message.subject }
        : { kind: 'dm' as const, userIds: dmPartners(message, chat.ownId) };
    composeRequest.set({ to, serial: Date.now() });
  };
  const moveTopic = (topic: string) =>
    client.updateMessage({ message_id: message.id, topic, propagate_mode: 'change_all' } as never).catch(fail);
  const resolved = isResolved(message.subject);
  const toggleResolved = () => void moveTopic(resolved ? message.subject.slice(RESOLVED_PREFIX.length) : `${RESOLVED_PREFIX}${message.subject}`);

  return (
    <>
      {showHeader && <ConversationHeader message={message} />}
      <article
        class={`message${sameSender ? ' continued' : ''}${unread ? ' unread' : ''}`}
        data-message-id={message.id}
        data-unread={unread ? 'true' : 'false'}
        tabIndex={-1}
        aria-labelledby={`sender-${message.id}`}
      >
        <Avatar url={message.avatar_url} name={message.sender_full_name} userId={message.sender_id} />
        <div class="message-body">
          <div class="message-meta">
            <span class="sender" id={`sender-${message.id}`}>
              {message.sender_full_name}
            </span>{' '}
            <time dateTime={time.iso} title={time.full}>
              {time.text}
            </time>
            {message.last_edit_timestamp !== undefined && (
              <span class="edited" title={`Edited ${new Date(message.last_edit_timestamp * 1000).toLocaleString()}`}>
                {' '}
                (edited)
              </span>
            )}
            {starred && (
              <span class="star" title="Starred">
                {' '}
                ★
              </span>
            )}
          </div>
          {editing === undefined ? (
            <MessageContent html={html} />
          ) : (
            <EditForm initial={editing} onSave={saveEdit} onCancel={() => setEditing(undefined)} />
          )}
          <Reactions message={message} />
          <div class="message-actions">
            <button type="button" onClick={reply}>
              Reply
            </button>
            <button type="button" aria-pressed={starred} onClick={toggleStar}>
              {starred ? 'Unstar' : 'Star'}
            </button>
            {canEdit(message, chat.ownId, realm, nowSeconds) && editing === undefined && (
              <button type="button" onClick={startEdit}>
                Edit
              </button>
            )}
            {canDelete(message, chat.ownId, realm, nowSeconds) && (
              <button type="button" onClick={remove}>
                Delete
              </button>
            )}
            {canMoveTopic(message, realm) && (
              <>
                <button type="button" aria-expanded={moving} onClick={() => setMoving(!moving)}>
                  Move topic
                </button>
                <button type="button" onClick={toggleResolved}>
                  {resolved ? 'Unresolve topic' : 'Resolve topic'}
                </button>
              </>
            )}
          </div>
          {moving && (
            <MoveTopicForm
              message={message}
              onDone={() => setMoving(false)}
              onError={(failure) => {
                setMoving(false);
                fail(failure);
              }}
            />
          )}
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
        </div>
      </article>
    </>
  );
}

function EditForm({ initial, onSave, onCancel }: { initial: string; onSave: (content: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  return (
    <form
      class="edit-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(text);
      }}
    >
      <textarea
        aria-label="Edit message"
        value={text}
        ref={(element) => element?.focus()}
        onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            onSave(text);
          }
        }}
      />
      <button type="submit">Save</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
