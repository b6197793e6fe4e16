/**
 * The compose box: channel and topic or direct recipients, the message with `@`/`#`/`:`
 * autocomplete, Markdown preview, emoji picker, uploads (picker, paste, drop) with progress,
 * typing notifications and drafts kept through /drafts. Enter sends; Shift+Enter is a newline.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { applyChoice } from '../lib/autocomplete';
import { type ComposeTarget, draftFields, draftMatches, retarget, sendParams, targetForView, targetReady } from '../lib/compose-target';
import { sanitizeMessageHtml } from '../lib/sanitize';
import { useStore } from '../lib/use-store';
import { type MessageView, viewKey } from '../narrow/view';
import { type Suggestion, useSuggestions } from './compose-suggestions';
import { useUploads } from './compose-uploads';
import { EmojiPicker } from './emoji-picker';
import { MessageContent } from './message-content';
import { RecipientsInput } from './recipients-input';

/** How often a "typing" start is repeated while typing goes on (the reference's period). */
const TYPING_PERIOD_MS = 10_000;
const DRAFT_DELAY_MS = 1000;

export function Compose({ view }: { view: MessageView }) {
  const { client, chat, composeRequest, state } = useWorkspace();
  const subscriptions = useStore(chat.subscriptions);
  const realm = useStore(chat.realm);
  const request = useStore(composeRequest);
  const channels = useMemo(() => [...subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name)), [subscriptions]);
  const [target, setTarget] = useState<ComposeTarget>(() => targetForView(view, chat.ownId, channels[0]?.stream_id));
  const [content, setContent] = useState('');
  const [caret, setCaret] = useState(0);
  const [selected, setSelected] = useState(0);
  const [preview, setPreview] = useState<string | undefined>();
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const draftId = useRef<number | undefined>(undefined);
  const lastTyping = useRef(0);
  /** The user typed in the Topic box since the view last changed (see retarget). */
  const topicTyped = useRef(false);

  // A new view retargets the box (before the next paint, so nothing typed meanwhile is lost)
  // and brings back its draft. A topic already typed for the same channel stays: what the
  // Topic box shows is what is sent.
  const key = viewKey(view);
  const mounted = useRef(false);
  useLayoutEffect(() => {
    const next = mounted.current ? retarget(target, targetForView(view, chat.ownId, channels[0]?.stream_id), topicTyped.current) : target;
    mounted.current = true;
    topicTyped.current = false;
    setTarget(next);
    const draft = [...chat.drafts.get().values()].find((candidate) => draftMatches(candidate, next));
    draftId.current = draft?.id;
    // Text typed and not yet sent follows the box rather than vanish; a draft of the new place wins.
    if (draft || content.trim() === '') setContent(draft?.content ?? '');
    setPreview(undefined);
  }, [key]);

  // A reply or shortcut: retarget and focus.
  useEffect(() => {
    if (!request) return;
    setTarget(request.to.kind === 'channel' ? { ...request.to } : { kind: 'dm', userIds: request.to.userIds });
    if (request.insert) setContent((text) => text + request.insert);
    textarea.current?.focus();
  }, [request]);

  // Drafts: saved a moment after typing stops, deleted when the text is sent or emptied.
  useEffect(() => {
    const timer = setTimeout(() => {
      const id = draftId.current;
      if (content.trim() === '') {
        if (id !== undefined) {
          draftId.current = undefined;
          client.deleteDraft({ draft_id: id }).catch(() => undefined);
        }
        return;
      }
      const draft = draftFields(target, content);
      if (id !== undefined) client.editDraft({ draft_id: id, draft } as never).catch(() => undefined);
      else
        client.createDrafts({ drafts: [draft] } as never).then(
          (answer) => (draftId.current = (answer as unknown as { ids: number[] }).ids[0]),
          () => undefined,
        );
    }, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [content]);

  const { trigger, suggestions } = useSuggestions(content, caret, channels);
  useEffect(() => setSelected(0), [trigger?.kind, trigger?.query]);

  const insertText = (text: string) => {
    const element = textarea.current;
    const at = element?.selectionStart ?? content.length;
    const next = content.slice(0, at) + text + content.slice(element?.selectionEnd ?? at);
    setContent(next);
    setCaret(at + text.length);
    requestAnimationFrame(() => element?.setSelectionRange(at + text.length, at + text.length));
  };

  const choose = (suggestion: Suggestion) => {
    if (!trigger) return;
    const next = applyChoice(content, trigger, suggestion.markup);
    setContent(next.text);
    setCaret(next.caret);
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  const notifyTyping = (op: 'start' | 'stop') => {
    if (!targetReady(target, false)) return;
    const now = Date.now();
    if (op === 'start' && now - lastTyping.current < TYPING_PERIOD_MS) return;
    lastTyping.current = op === 'start' ? now : 0;
    const params =
      target.kind === 'channel'
        ? { op, type: 'stream', stream_id: target.channelId, topic: target.topic }
        : { op, type: 'direct', to: target.userIds };
    client.sendTyping(params as never).catch(() => undefined);
  };

  const send = async () => {
    const text = content.trim();
    if (!text || sending) return;
    if (!targetReady(target, realm.mandatory_topics === true)) {
      setError(target.kind === 'dm' ? 'Choose at least one recipient.' : 'Choose a channel and a topic.');
      return;
    }
    setSending(true);
    setError(undefined);
    try {
      await client.sendMessage(sendParams(target, text) as never);
      setContent('');
      setPreview(undefined);
      notifyTyping('stop');
      const id = draftId.current;
      draftId.current = undefined;
      if (id !== undefined) client.deleteDraft({ draft_id: id }).catch(() => undefined);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSending(false);
    }
  };

  const { uploads, upload } = useUploads(
    (markdown) => setContent((text) => `${text}${text && !text.endsWith('\n') ? '\n' : ''}${markdown}\n`),
    setError,
  );

  const togglePreview = () => {
    if (preview !== undefined) return setPreview(undefined);
    client.getRenderedMessage({ content: content || ' ' } as never).then(
      (answer) => setPreview(sanitizeMessageHtml((answer as unknown as { rendered: string }).rendered)),
      (failure: Error) => setError(failure.message),
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setSelected((index) => (index + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(suggestions[selected] ?? suggestions[0]!);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void send();
    } else if (event.key === 'Escape') {
      textarea.current?.blur();
    }
  };

  return (
    <form
      class="compose"
      aria-label="Compose"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        if (!event.dataTransfer?.files.length) return;
        event.preventDefault();
        upload(event.dataTransfer.files);
      }}
    >
      <div class="compose-target">
        <fieldset class="mode">
          <legend class="visually-hidden">Send to</legend>
          <button
            type="button"
            aria-pressed={target.kind === 'channel'}
            onClick={() => setTarget({ kind: 'channel', channelId: target.kind === 'channel' ? target.channelId : channels[0]?.stream_id, topic: '' })}
          >
            Channel message
          </button>
          <button type="button" aria-pressed={target.kind === 'dm'} onClick={() => setTarget({ kind: 'dm', userIds: target.kind === 'dm' ? target.userIds : [] })}>
            Direct message
          </button>
        </fieldset>
        {target.kind === 'channel' ? (
          <>
            <label>
              <span class="visually-hidden">Channel</span>
              <select
                aria-label="Channel"
                value={target.channelId === undefined ? '' : String(target.channelId)}
                onChange={(event) => {
                  const channelId = Number((event.currentTarget as HTMLSelectElement).value);
                  setTarget((current) => (current.kind === 'channel' ? { ...current, channelId } : current));
                }}
              >
                {channels.map((channel) => (
                  <option key={channel.stream_id} value={String(channel.stream_id)}>
                    #{channel.name}
                  </option>
                ))}
              </select>
            </label>
            <input
              type="text"
              aria-label="Topic"
              placeholder="Topic"
              maxLength={Number(state.max_topic_length ?? 60)}
              value={target.topic}
              onInput={(event) => {
                const topic = (event.currentTarget as HTMLInputElement).value;
                topicTyped.current = true;
                // From the latest state, not this render's: a view change may have retargeted meanwhile.
                setTarget((current) => (current.kind === 'channel' ? { ...current, topic } : current));
              }}
            />
          </>
        ) : (
          <RecipientsInput userIds={target.userIds} onChange={(userIds) => setTarget({ kind: 'dm', userIds })} />
        )}
      </div>
      <div class="compose-body">
        {preview === undefined ? (
          <textarea
            ref={textarea}
            id="compose-textarea"
            aria-label="Message"
            placeholder="Message (Enter sends, Shift+Enter for a new line)"
            rows={3}
            value={content}
            aria-controls={suggestions.length > 0 ? 'compose-suggestions' : undefined}
            onInput={(event) => {
              const element = event.currentTarget as HTMLTextAreaElement;
              setContent(element.value);
              setCaret(element.selectionStart);
              if (element.value) notifyTyping('start');
            }}
            onClick={(event) => setCaret((event.currentTarget as HTMLTextAreaElement).selectionStart)}
            onKeyUp={(event) => {
              if (!['ArrowDown', 'ArrowUp', 'Enter', 'Tab'].includes(event.key)) setCaret((event.currentTarget as HTMLTextAreaElement).selectionStart);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => notifyTyping('stop')}
            onPaste={(event) => {
              const files = event.clipboardData?.files;
              if (files && files.length > 0) {
                event.preventDefault();
                upload(files);
              }
            }}
          />
        ) : (
          <section aria-label="Preview">
            <MessageContent html={preview} class="message-content preview" />
          </section>
        )}
        {suggestions.length > 0 && preview === undefined && (
          <div id="compose-suggestions" role="listbox" aria-label="Suggestions" class="suggestions">
            {suggestions.map((suggestion, index) => (
              <div
                key={suggestion.key}
                role="option"
                tabIndex={-1}
                aria-selected={index === selected}
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(suggestion);
                }}
              >
                {suggestion.label}
              </div>
            ))}
          </div>
        )}
      </div>
      {uploads.map((item) => (
        <p key={item.id} class="upload-progress">
          <label>
            Uploading {item.name}
            <progress max={1} value={item.progress} />
          </label>
        </p>
      ))}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="compose-actions">
        <label class="upload-button">
          <span>Attach</span>
          <input
            type="file"
            multiple
            aria-label="Upload files"
            onChange={(event) => {
              const input = event.currentTarget as HTMLInputElement;
              if (input.files) upload([...input.files]);
              input.value = '';
            }}
          />
        </label>
        <button type="button" aria-label="Insert emoji" aria-expanded={picking} onClick={() => setPicking(!picking)}>
          🙂
        </button>
        <button type="button" aria-pressed={preview !== undefined} onClick={togglePreview}>
          Preview
        </button>
        <button type="submit" class="send" disabled={sending}>
          Send
        </button>
      </div>
      {picking && (
        <EmojiPicker
          onClose={() => setPicking(false)}
          onPick={(choice) => {
            setPicking(false);
            insertText(`:${choice.name}: `);
            textarea.current?.focus();
          }}
        />
      )}
    </form>
  );
}
