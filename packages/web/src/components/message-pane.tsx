/**
 * A message view: its messages (history loaded backwards as the reader scrolls up, live messages
 * appended), read marking as messages come into sight, and the compose box.
 */
import type { Client } from '@teamchat/client';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { createReadMarker } from '../lib/mark-read';
import { conversationName } from '../lib/names';
import { useStore } from '../lib/use-store';
import { viewToTerms } from '../narrow/terms';
import { type MessageView, viewKey } from '../narrow/view';
import { type FetchedPage, type MessageList, emptyList, firstPageArrived, olderPageArrived } from '../stores/message-list';
import { Compose } from './compose';
import { MessageItem } from './message-item';
import { TypingIndicator } from './typing-indicator';

const PAGE = 50;
/** Pixels from the top at which older messages are fetched. */
const LOAD_MARGIN = 300;

async function fetchPage(client: Client, view: MessageView, anchor: number | 'newest', before: number): Promise<FetchedPage> {
  const answer = await client.getMessages({
    anchor: String(anchor),
    num_before: before,
    num_after: 0,
    include_anchor: anchor === 'newest',
    narrow: viewToTerms(view),
    apply_markdown: true,
    client_gravatar: true,
  } as Parameters<Client['getMessages']>[0]);
  return answer as unknown as FetchedPage;
}

export function ViewTitle({ view }: { view: MessageView }) {
  const { chat } = useWorkspace();
  const subscriptions = useStore(chat.subscriptions);
  const people = useStore(chat.people);
  switch (view.kind) {
    case 'feed':
      return <>Combined feed</>;
    case 'channel': {
      const name = subscriptions.get(view.channelId)?.name ?? `Channel ${view.channelId}`;
      return <>{view.topic === undefined ? `#${name}` : `#${name} › ${view.topic}`}</>;
    }
    case 'dm':
      return <>Direct messages with {conversationName(people, view.userIds.filter((id) => id !== chat.ownId))}</>;
    case 'all-dms':
      return <>Direct messages</>;
    case 'starred':
      return <>Starred messages</>;
    case 'mentioned':
      return <>Mentions</>;
    case 'search':
      return <>Search: {view.query}</>;
  }
}

export function MessagePane({ view, reloads }: { view: MessageView; reloads: number }) {
  const { client, chat } = useWorkspace();
  const list = useStore(chat.messageList);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** The scroll height before older messages were prepended, to keep the reader's place. */
  const heightBeforePrepend = useRef<number | undefined>(undefined);
  const marker = useMemo(() => createReadMarker(client), [client]);
  useEffect(() => () => marker.dispose(), [marker]);

  // Load the view's newest messages when the view changes (by what it shows, not by identity),
  // and again after a re-registration, when events were missed.
  const key = viewKey(view);
  useEffect(() => {
    let cancelled = false;
    chat.messageList.set(emptyList(view));
    atBottom.current = true;
    fetchPage(client, view, 'newest', PAGE).then(
      (answer) => {
        if (!cancelled) chat.messageList.update((list) => firstPageArrived(list, answer));
      },
      (error: Error) => {
        if (!cancelled) chat.messageList.set({ ...emptyList(view), loading: false, firstPage: false, error: error.message });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [key, reloads, client, chat]);

  const loadOlder = () => {
    const current = chat.messageList.get();
    const oldest = current.messages[0];
    if (current.loading || current.foundOldest || !oldest) return;
    chat.messageList.set({ ...current, loading: true });
    fetchPage(client, current.view, oldest.id, PAGE).then(
      (answer) => {
        const latest = chat.messageList.get();
        if (viewKey(latest.view) !== viewKey(current.view)) return;
        heightBeforePrepend.current = scroller.current?.scrollHeight;
        chat.messageList.set(olderPageArrived(latest, answer));
      },
      (error: Error) => chat.messageList.set({ ...chat.messageList.get(), loading: false, error: error.message }),
    );
  };

  // Keep the place: after a prepend, shift by what was added above; at the bottom, stay there.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (heightBeforePrepend.current !== undefined) {
      element.scrollTop += element.scrollHeight - heightBeforePrepend.current;
      heightBeforePrepend.current = undefined;
    } else if (atBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
    markVisible();
    // A short first page may not fill the pane: fetch more until it scrolls or history ends.
    if (element.scrollHeight <= element.clientHeight && !list.loading && !list.foundOldest && list.messages.length > 0) loadOlder();
  }, [list]);

  function markVisible() {
    const element = scroller.current;
    if (!element || document.visibilityState !== 'visible') return;
    const box = element.getBoundingClientRect();
    const unreadIds: number[] = [];
    for (const article of element.querySelectorAll<HTMLElement>('article[data-unread="true"]')) {
      const rect = article.getBoundingClientRect();
      if (rect.bottom > box.top && rect.top < box.bottom) unreadIds.push(Number(article.dataset.messageId));
    }
    marker.seen(unreadIds);
  }

  // Coming back to the tab marks what is in sight.
  useEffect(() => {
    const onVisible = () => markVisible();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [marker]);

  function onScroll() {
    const element = scroller.current!;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
    if (element.scrollTop < LOAD_MARGIN) loadOlder();
    markVisible();
  }

  return (
    <section class="message-pane" aria-labelledby="view-title">
      <h1 id="view-title" class="view-title">
        <ViewTitle view={view} />
      </h1>
      <div class="message-scroller" ref={scroller} onScroll={onScroll}>
        {list.foundOldest && list.messages.length > 0 && <p class="history-start">Start of the conversation</p>}
        {list.loading && <p class="loading-more">Loading messages…</p>}
        {list.error && (
          <p class="error" role="alert">
            {list.error}
          </p>
        )}
        <div role="log" aria-live="polite" aria-label="Messages" class="message-log">
          {list.messages.map((message, index) => (
            <MessageItem key={message.id} message={message} previous={list.messages[index - 1]} view={view} />
          ))}
        </div>
        {!list.loading && list.messages.length === 0 && !list.error && <p class="empty">No messages here yet.</p>}
      </div>
      <TypingIndicator view={view} />
      {view.kind !== 'search' && <Compose view={view} />}
    </section>
  );
}

export type { MessageList };
