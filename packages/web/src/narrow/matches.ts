/**
 * Whether a message that arrives live belongs in the open view, so that it is appended without
 * refetching. Search views answer false: only the server knows what matches full-text search.
 */
import type { Message } from '../stores/types';
import type { MessageView } from './view';

/** The other participants of a direct message (all of them for a message to oneself). */
export function dmPartners(message: Message, ownId: number): number[] {
  if (typeof message.display_recipient === 'string') return [];
  const ids = message.display_recipient.map((person) => person.id);
  const others = ids.filter((id) => id !== ownId);
  return (others.length > 0 ? others : [ownId]).sort((a, b) => a - b);
}

export function messageMatchesView(view: MessageView, message: Message, ownId: number): boolean {
  switch (view.kind) {
    case 'feed':
      return true;
    case 'channel':
      if (message.type !== 'stream' || message.stream_id !== view.channelId) return false;
      return view.topic === undefined || message.subject.toLowerCase() === view.topic.toLowerCase();
    case 'dm': {
      if (message.type !== 'private') return false;
      const wanted = [...new Set(view.userIds.filter((id) => id !== ownId))].sort((a, b) => a - b);
      const partners = dmPartners(message, ownId).filter((id) => id !== ownId);
      return wanted.join(',') === partners.join(',');
    }
    case 'all-dms':
      return message.type === 'private';
    case 'starred':
      return message.flags.includes('starred');
    case 'mentioned':
      return message.flags.some((flag) => flag === 'mentioned' || flag === 'wildcard_mentioned');
    case 'search':
      return false;
  }
}
