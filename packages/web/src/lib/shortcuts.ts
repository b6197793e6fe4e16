/**
 * The reference's main keyboard shortcuts: `c` compose, `x` new direct message, `r` or Enter
 * reply to the selected message, `/` search, `n` next unread topic, `j`/`k` or the arrow keys to
 * move between messages, `*` star, Esc to leave a text box. Keys typed into a text box are
 * its own, except Esc.
 */
import type { Workspace } from '../app-context';
import { isMessageView } from '../narrow/view';
import { dmPartners } from '../narrow/matches';
import { nextUnreadTopic } from './next-unread';

function typingInto(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

function articles(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[role="log"] article[data-message-id]')];
}

function selectedArticle(): HTMLElement | undefined {
  const focused = document.activeElement?.closest<HTMLElement>('article[data-message-id]');
  return focused ?? articles().at(-1);
}

function moveSelection(step: number): void {
  const all = articles();
  if (all.length === 0) return;
  const current = document.activeElement?.closest<HTMLElement>('article[data-message-id]');
  const index = current ? all.indexOf(current) : all.length;
  const next = all[Math.min(all.length - 1, Math.max(0, index + step))];
  next?.focus();
  next?.scrollIntoView({ block: 'nearest' });
}

export function installShortcuts(workspace: Workspace): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Escape') {
      if (typingInto(event.target)) (event.target as HTMLElement).blur();
      return;
    }
    if (typingInto(event.target) || (event.target as HTMLElement | null)?.closest?.('[role="dialog"]')) return;
    const view = workspace.view.get();
    // Compose lives under message views: from Inbox, Recent or Settings, open one first.
    const withCompose = (then: () => void) => {
      if (!isMessageView(view) || view.kind === 'search') workspace.navigate({ kind: 'feed' });
      setTimeout(then, 50);
    };
    switch (event.key) {
      case 'c':
        withCompose(() => document.querySelector<HTMLTextAreaElement>('#compose-textarea')?.focus());
        break;
      case 'x':
        withCompose(() => {
          workspace.composeRequest.set({ to: { kind: 'dm', userIds: [] }, serial: Date.now() });
          setTimeout(() => document.querySelector<HTMLInputElement>('input[aria-label="Recipients"]')?.focus(), 50);
        });
        break;
      case 'r':
      case 'Enter': {
        const article = selectedArticle();
        const id = Number(article?.dataset.messageId);
        const message = workspace.chat.messageList.get().messages.find((candidate) => candidate.id === id);
        if (!message) return;
        workspace.composeRequest.set({
          to:
            message.type === 'stream'
              ? { kind: 'channel', channelId: message.stream_id!, topic: message.subject }
              : { kind: 'dm', userIds: dmPartners(message, workspace.chat.ownId) },
          serial: Date.now(),
        });
        break;
      }
      case '/':
        document.querySelector<HTMLInputElement>('#search-input')?.focus();
        break;
      case 'n': {
        const next = nextUnreadTopic(workspace.chat.unread.get(), isMessageView(view) ? view : { kind: 'feed' });
        if (next) workspace.navigate({ kind: 'channel', channelId: next.channelId, topic: next.topic });
        break;
      }
      case 'j':
      case 'ArrowDown':
        moveSelection(1);
        break;
      case 'k':
      case 'ArrowUp':
        moveSelection(-1);
        break;
      case '*': {
        const star = selectedArticle()?.querySelector<HTMLButtonElement>('.message-actions button[aria-pressed]');
        star?.click();
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };
  document.addEventListener('keydown', onKeyDown);
  return () => document.removeEventListener('keydown', onKeyDown);
}
