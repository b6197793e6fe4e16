import type { Stores, Tx } from './types.js';

/** The methods of each store that write. Typed, so a new store must say which of its methods write. */
const WRITES: { readonly [K in keyof Stores]: readonly (keyof Stores[K])[] } = {
  realms: ['insert', 'update'],
  users: ['insert', 'update'],
  outbox: ['insert', 'markSent'],
  messages: ['insert', 'update', 'delete', 'addRecipients', 'setFlags', 'replaceFlags', 'removeRecipients'],
  reactions: ['add', 'remove'],
  alertWords: ['add', 'remove'],
  linkifiers: ['insert', 'update', 'delete', 'reorder'],
  userGroups: ['insert', 'update', 'addMembers', 'removeMembers', 'addSubgroups', 'removeSubgroups'],
  drafts: ['insert', 'update', 'delete'],
  scheduledMessages: ['insert', 'update', 'delete'],
  realmEmoji: ['insert', 'deactivate'],
  customProfileFields: ['insert', 'update', 'delete', 'reorder', 'setValue', 'removeValue'],
  navigationViews: ['insert', 'update', 'remove'],
  savedSnippets: ['insert', 'update', 'delete'],
  push: ['addToken', 'removeToken', 'removeTokens', 'markNotified', 'clearNotified', 'insertDevice', 'updateDevice', 'deleteDevice'],
  realmDomains: ['add', 'update', 'remove'],
  attachments: ['insert', 'link', 'unlink', 'delete'],
  channelFolders: ['insert', 'update', 'reorder'],
  streams: ['insert', 'update'],
  subscriptions: ['upsert', 'update'],
  defaultStreams: ['add', 'remove'],
  userTopics: ['set'],
  invitations: ['insert', 'updatePending'],
  playgrounds: ['insert', 'delete'],
  botStorage: ['put', 'remove'],
  userStatuses: ['set'],
  mutedUsers: ['add', 'remove'],
  bots: ['put'],
  presence: ['save'],
  submessages: ['insert'],
};

/** A handle given to one operation's callback, and the switch that ends it. */
export interface TxScope {
  tx: Tx;
  /** Ends the handle: from now on every method of `tx` rejects. */
  revoke(): void;
  /** Whether the handle is still usable (its operation has not settled). */
  readonly live: boolean;
  /** The callbacks registered with `tx.afterCommit`, in order. */
  readonly committed: readonly (() => void)[];
}

/**
 * Wraps a driver's stores in a handle that works only while its operation runs. A callback
 * that leaks `tx` (keeps it past its own settlement, for example in an un-awaited promise)
 * would otherwise run statements inside whatever operation holds the connection by then,
 * mixing its writes into another transaction. A `read` handle also refuses the write methods.
 */
export function scopeTx(stores: Stores, mode: 'read' | 'write'): TxScope {
  let live = true;
  const committed: (() => void)[] = [];
  const guard = <K extends keyof Stores>(area: K): Stores[K] => {
    const store = stores[area] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const writes = WRITES[area] as readonly string[];
    const out: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const name of Object.keys(store)) {
      const write = writes.includes(name);
      out[name] = (...args) => {
        if (!live) {
          return Promise.reject(new Error(`storage: tx.${area}.${name} called after its operation settled`));
        }
        if (write && mode === 'read') {
          return Promise.reject(new Error(`storage: tx.${area}.${name} writes and cannot run inside read()`));
        }
        return store[name]!(...args);
      };
    }
    return out as unknown as Stores[K];
  };
  return {
    tx: {
      realms: guard('realms'),
      users: guard('users'),
      outbox: guard('outbox'),
      messages: guard('messages'),
      reactions: guard('reactions'),
      alertWords: guard('alertWords'),
      linkifiers: guard('linkifiers'),
      userGroups: guard('userGroups'),
      drafts: guard('drafts'),
      scheduledMessages: guard('scheduledMessages'),
      realmEmoji: guard('realmEmoji'),
      customProfileFields: guard('customProfileFields'),
      navigationViews: guard('navigationViews'),
      savedSnippets: guard('savedSnippets'),
      push: guard('push'),
      realmDomains: guard('realmDomains'),
      attachments: guard('attachments'),
      channelFolders: guard('channelFolders'),
      streams: guard('streams'),
      subscriptions: guard('subscriptions'),
      defaultStreams: guard('defaultStreams'),
      userTopics: guard('userTopics'),
      invitations: guard('invitations'),
      playgrounds: guard('playgrounds'),
      botStorage: guard('botStorage'),
      userStatuses: guard('userStatuses'),
      mutedUsers: guard('mutedUsers'),
      bots: guard('bots'),
      presence: guard('presence'),
      submessages: guard('submessages'),
      afterCommit(callback) {
        if (!live) throw new Error('storage: tx.afterCommit called after its operation settled');
        if (mode === 'read') throw new Error('storage: tx.afterCommit is not available inside read()');
        committed.push(callback);
      },
    },
    committed,
    revoke: () => {
      live = false;
    },
    get live() {
      return live;
    },
  };
}
