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

type Method = (...args: unknown[]) => Promise<unknown>;
/** One store's methods, listed once per stores object: name, the driver's method, whether it writes. */
type MethodTable = readonly (readonly [name: string, method: Method, write: boolean])[];

/** One prototype per driver stores object, built on first use (see scopeTx). */
const prototypes = new WeakMap<Stores, object>();

/**
 * Wraps a driver's stores in a handle that works only while its operation runs. A callback
 * that leaks `tx` (keeps it past its own settlement, for example in an un-awaited promise)
 * would otherwise run statements inside whatever operation holds the connection by then,
 * mixing its writes into another transaction. A `read` handle also refuses the write methods.
 *
 * What does not depend on the operation is built once per stores object: the list of each
 * store's methods and a prototype whose getters build a store's guards on the handle's first use
 * of that store. An operation pays for the stores it touches, not for all thirty. The guards of a
 * handle close over that handle's own state, so revoking it cannot revive or end another, and
 * guarded stores stay plain objects (their methods may be spread or called detached).
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
  tx.afterCommit = (callback) => {
    if (!state.live) throw new Error('storage: tx.afterCommit called after its operation settled');
    if (state.mode === 'read') throw new Error('storage: tx.afterCommit is not available inside read()');
    state.committed.push(callback);
  };
  return new Scope(tx, state);
}

/**
 * The handle's switch, as a class: its accessor lives on the prototype. Returned as an object
 * literal with a getter (`get live()`, a new closure per call), the handle and what it held
 * survived young-generation collections (`--trace-gc-nvp`: an empty `storage.read` promoted
 * ~127 bytes to the old generation; as a class, none), whose full collections then stalled the
 * event loop every two seconds under load.
 */
class Scope implements TxScope {
  constructor(
    readonly tx: Tx,
    private readonly state: ScopeState,
  ) {}

  get committed(): readonly (() => void)[] {
    return this.state.committed;
  }

  get live(): boolean {
    return this.state.live;
  }

  revoke(): void {
    this.state.live = false;
  }
}

function txPrototype(stores: Stores): object {
  const proto = {};
  for (const area of Object.keys(WRITES) as (keyof Stores)[]) {
    const store = stores[area] as unknown as Record<string, Method>;
    const writes = WRITES[area] as readonly string[];
    const table: MethodTable = Object.keys(store).map((name) => [name, store[name]!.bind(store), writes.includes(name)] as const);
    const shape = Object.fromEntries(table.map(([name]) => [name, null]));
    Object.defineProperty(proto, area, {
      enumerable: true,
      get(this: { [STATE]: ScopeState }) {
        const guarded = guardStore(area, table, shape, this[STATE]);
        // Later uses of the same store in this handle find it on the handle itself.
        Object.defineProperty(this, area, { value: guarded, enumerable: true, writable: true, configurable: true });
        return guarded;
      },
    });
  }
  return proto;
}

/**
 * A store's guards. `shape` has every method's name: its copy takes each guard into a field it
 * already has, so every handle's guards of one store share a hidden class. Added one by one, a
 * store's guards went to dictionary mode past a dozen methods, on every operation using it.
 */
function guardStore(area: string, table: MethodTable, shape: object, state: ScopeState): Record<string, Method> {
  const out = { ...shape } as Record<string, Method>;
  for (const [name, method, write] of table) {
    out[name] = (...args) => {
      if (!state.live) return Promise.reject(new Error(`storage: tx.${area}.${name} called after its operation settled`));
      if (write && state.mode === 'read') {
        return Promise.reject(new Error(`storage: tx.${area}.${name} writes and cannot run inside read()`));
      }
      return method(...args);
    };
  }
  return out;
}
