/**
 * The tab's one event queue: registers, applies every event to the chat's stores, re-registers
 * when the server forgot the queue (replacing the stores' contents with the fresh state), and
 * reports the connection: "reconnecting" from the first failed request until the server answers
 * again.
 */
import type { BackoffOptions, Client, EventQueue, QueueItem, RegisterParams } from '@teamchat/client';
import { createStore, type Store } from '../lib/store';
import { type Chat, type LooseEvent, type RegisterSnapshot, applyEvent, createChat } from '../stores/chat';
import { type PresenceTimes, applyPresences } from '../stores/presence';

/** How often the tab tells the server its user is here (the reference pings every minute). */
const PRESENCE_PING_MS = 60_000;

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'signed-out';

/** What the app asks register for: everything, with the capabilities whose event shapes the stores read. */
export const REGISTER_PARAMS = {
  apply_markdown: true,
  // Gravatar avatars come as null and are drawn locally (components/avatar.tsx).
  client_gravatar: true,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    simplified_presence_events: true,
  },
} as RegisterParams;

/** Copies a fresh chat's values into the live one, so components subscribed to its stores see the new state. */
function replaceState(chat: Chat, fresh: Chat): void {
  chat.people.set(fresh.people.get());
  chat.subscriptions.set(fresh.subscriptions.get());
  chat.unread.set(fresh.unread.get());
  chat.topics.set(fresh.topics.get());
  chat.presence.set(fresh.presence.get());
  chat.realm.set(fresh.realm.get());
  chat.userSettings.set(fresh.userSettings.get());
  chat.realmEmoji.set(fresh.realmEmoji.get());
  chat.drafts.set(fresh.drafts.get());
  chat.dmConversations.set(fresh.dmConversations.get());
}

export interface Live {
  chat: Chat;
  queue: EventQueue;
  state: RegisterSnapshot;
  stop(): Promise<void>;
}

export interface LiveOptions {
  status: Store<ConnectionStatus>;
  /** The queue was replaced: the open view should load its messages again. */
  onReregistered: () => void;
  /** The server refused the credentials (key regenerated, account deactivated): sign out. */
  onUnauthorized: () => void;
  /** Retry delays; the default caps them at 8 s, so a tab catches up soon after an outage. */
  backoff?: BackoffOptions;
  /** How often to check whether the server is back while reconnecting (default 3 s). */
  probeMs?: number;
}

/** A fetch that marks the connection up whenever the server answers anything below 500. */
export function watchingFetch(status: Store<ConnectionStatus>): typeof fetch {
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (response.status < 500 && status.get() === 'reconnecting') status.set('connected');
    return response;
  };
}

export async function startLive(client: Client, options: LiveOptions): Promise<Live> {
  const { status } = options;
  let chat: Chat | undefined;
  let probe: ReturnType<typeof setInterval> | undefined;
  const stopProbe = () => {
    if (probe !== undefined) clearInterval(probe);
    probe = undefined;
  };
  // While the long poll is waiting out its backoff or hanging, a cheap request tells when the server is back.
  const startProbe = () => {
    probe ??= setInterval(() => {
      client.getServerSettings().then(
        () => {
          if (status.get() === 'reconnecting') status.set('connected');
          stopProbe();
        },
        () => undefined,
      );
    }, options.probeMs ?? 3000);
  };
  const queue = client.eventQueue({
    register: REGISTER_PARAMS,
    backoff: options.backoff ?? { maxMs: 8000 },
    onItem(item: QueueItem) {
      if (status.get() === 'reconnecting') status.set('connected');
      if (!chat) return;
      if (item.type === 'queue_reregistered') {
        replaceState(chat, createChat(item.state as unknown as RegisterSnapshot));
        options.onReregistered();
        return;
      }
      applyEvent(chat, item as unknown as LooseEvent);
    },
    onRetry() {
      if (status.get() !== 'signed-out') status.set('reconnecting');
      startProbe();
    },
    onError(error) {
      stopProbe();
      const code = (error as { code?: string }).code;
      const httpStatus = (error as { status?: number }).status;
      if (httpStatus === 401 || code === 'UNAUTHORIZED' || code === 'USER_DEACTIVATED') options.onUnauthorized();
      else status.set('reconnecting');
    },
  });
  status.set('connecting');
  const state = (await queue.start()) as unknown as RegisterSnapshot;
  const live = createChat(state);
  chat = live;
  status.set('connected');
  // Presence: "active" while the tab is visible, "idle" while hidden; the answer refreshes everyone's.
  const ping = () => {
    const visible = typeof document === 'undefined' || document.visibilityState === 'visible';
    client.updatePresence({ status: visible ? 'active' : 'idle', new_user_input: visible, slim_presence: true } as never).then(
      (answer) => {
        const presences = (answer as unknown as { presences?: Record<string, PresenceTimes> }).presences;
        if (presences) live.presence.update((current) => applyPresences(current, presences));
      },
      () => undefined,
    );
  };
  ping();
  const presenceTimer = setInterval(ping, PRESENCE_PING_MS);
  return {
    chat: live,
    queue,
    state,
    async stop() {
      clearInterval(presenceTimer);
      stopProbe();
      status.set('signed-out');
      await queue.stop();
    },
  };
}

/** A store for the connection status, starting before anything is known. */
export function createStatusStore(): Store<ConnectionStatus> {
  return createStore<ConnectionStatus>('connecting');
}
