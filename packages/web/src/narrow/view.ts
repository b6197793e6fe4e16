/**
 * What the main pane shows. Message views are narrows (a filter over messages); Inbox, Recent
 * conversations and Settings are views of their own.
 */
export type MessageView =
  | { kind: 'feed' }
  | { kind: 'channel'; channelId: number; topic?: string }
  | { kind: 'dm'; userIds: number[] }
  | { kind: 'all-dms' }
  | { kind: 'starred' }
  | { kind: 'mentioned' }
  | { kind: 'search'; query: string };

export type View = MessageView | { kind: 'inbox' } | { kind: 'recent' } | { kind: 'settings'; section: string } | { kind: 'channels' };

export function isMessageView(view: View): view is MessageView {
  return view.kind !== 'inbox' && view.kind !== 'recent' && view.kind !== 'settings' && view.kind !== 'channels';
}

/** A stable key per view: two views with the same key show the same messages. */
export function viewKey(view: View): string {
  switch (view.kind) {
    case 'channel':
      return view.topic === undefined ? `channel:${view.channelId}` : `topic:${view.channelId}:${view.topic.toLowerCase()}`;
    case 'dm':
      return `dm:${[...view.userIds].sort((a, b) => a - b).join(',')}`;
    case 'search':
      return `search:${view.query}`;
    case 'settings':
      return `settings:${view.section}`;
    default:
      return view.kind;
  }
}
