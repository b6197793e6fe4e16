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

/** What every guarded method of one handle checks: the handle's own liveness and mode. */
interface ScopeState {
  live: boolean;
  readonly mode: 'read' | 'write';
  readonly committed: (() => void)[];
}

const STATE = Symbol('tx scope');

type GuardedStore = Record<string, (...args: unknown[]) => Promise<unknown>> & { [STATE]: ScopeState };
type TxPrototype = object;

/** One prototype per driver stores object, built on first use: the guards are made once, not per transaction. */
const prototypes = new WeakMap<Stores, TxPrototype>();

/**
 * Wraps a driver's stores in a handle that works only while its operation runs. A callback
 * that leaks `tx` (keeps it past its own settlement, for example in an un-awaited promise)
 * would otherwise run statements inside whatever operation holds the connection by then,
 * mixing its writes into another transaction. A `read` handle also refuses the write methods.
 *
 * The guard methods are built once per stores object, on prototypes; a handle is a small object
 * holding its own scope state, and each store of it is created on first access from that store's
 * prototype. So a handle is identified by object, and revoking it cannot revive or end another.
 * Store methods must be called on their store (`tx.users.get(id)`), not detached from it.
 */
export function scopeTx(stores: Stores, mode: 'read' | 'write'): TxScope {
  let proto = prototypes.get(stores);
  if (!proto) {
    proto = txPrototype(stores);
    prototypes.set(stores, proto);
  }
  const state: ScopeState = { live: true, mode, committed: [] };
  const tx = Object.create(proto) as Tx & { [STATE]: ScopeState };
  tx[STATE] = state;
  return {
    tx,
    committed: state.committed,
    revoke: () => {
      state.live = false;
    },
    get live() {
      return state.live;
    },
  };
}

function txPrototype(stores: Stores): TxPrototype {
  const proto: Record<string | symbol, unknown> = {
    afterCommit(this: { [STATE]: ScopeState }, callback: () => void) {
      const state = this[STATE];
      if (!state.live) throw new Error('storage: tx.afterCommit called after its operation settled');
      if (state.mode === 'read') throw new Error('storage: tx.afterCommit is not available inside read()');
      state.committed.push(callback);
    },
  };
  for (const area of Object.keys(WRITES) as (keyof Stores)[]) {
    const storeProto = guardedStorePrototype(stores, area);
    Object.defineProperty(proto, area, {
      get(this: { [STATE]: ScopeState }) {
        const store = Object.create(storeProto) as GuardedStore;
        store[STATE] = this[STATE];
        // Later reads of the same area in this handle find the store on the handle itself.
        Object.defineProperty(this, area, { value: store });
        return store;
      },
    });
  }
  return proto;
}

function guardedStorePrototype<K extends keyof Stores>(stores: Stores, area: K): object {
  const store = stores[area] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const writes = WRITES[area] as readonly string[];
  const proto: Record<string, (this: GuardedStore | undefined, ...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.keys(store)) {
    const method = store[name]!;
    const write = writes.includes(name);
    proto[name] = function (this: GuardedStore | undefined, ...args: unknown[]) {
      const state = this?.[STATE];
      if (!state) return Promise.reject(new Error(`storage: tx.${area}.${name} called detached from its store`));
      if (!state.live) return Promise.reject(new Error(`storage: tx.${area}.${name} called after its operation settled`));
      if (write && state.mode === 'read') {
        return Promise.reject(new Error(`storage: tx.${area}.${name} writes and cannot run inside read()`));
      }
      return method.apply(store, args);
    };
  }
  return proto;
}
