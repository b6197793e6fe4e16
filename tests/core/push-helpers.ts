/** A recording push notifier and a realm where messages go out, for the push notification tests. */
import { type MessagePushNotification, type PushNotifier, type PushRemoval, type PushTestNotification, pushJobsSettled, doSendMessage, type User } from '@teamchat/core/internal';
import { must, type World } from '../helpers/core.js';
import { type ChannelWorld, channel, channelWorld, subscribe } from './channel-helpers.js';

export interface RecordingNotifier extends PushNotifier {
  sent: MessagePushNotification[];
  removed: PushRemoval[];
  tests: PushTestNotification[];
  /** Users whose notification throws, rejects or never settles (read at each call). */
  fail: { throwFor?: number[]; rejectFor?: number[]; hangFor?: number[] };
}

/** Records every call, and fails as `fail` says. */
export function recordingNotifier(): RecordingNotifier {
  const sent: MessagePushNotification[] = [];
  const removed: PushRemoval[] = [];
  const tests: PushTestNotification[] = [];
  const fail: RecordingNotifier['fail'] = {};
  return {
    sent,
    removed,
    tests,
    fail,
    test(t) {
      tests.push(t);
    },
    notify(n) {
      sent.push(n);
      if (fail.throwFor?.includes(n.userId)) throw new Error('notifier down');
      if (fail.rejectFor?.includes(n.userId)) return Promise.reject(new Error('notifier rejected'));
      if (fail.hangFor?.includes(n.userId)) return new Promise<void>(() => undefined);
    },
    remove(r) {
      removed.push(r);
    },
  };
}

export interface PushWorld extends ChannelWorld {
  notifier: RecordingNotifier;
  /** Waits for the push jobs, then returns and forgets what the notifier got. */
  settle(): Promise<{ sent: MessagePushNotification[]; removed: PushRemoval[] }>;
}

/** channelWorld with a recording notifier; member, other, admin and the bot are subscribed to "general". */
export async function pushWorld(notifier = recordingNotifier()): Promise<PushWorld> {
  const m = await channelWorld({ pushNotifier: notifier });
  for (const user of [m.member, m.other, m.admin, m.bot]) await subscribe(m.w, user, ['general']);
  return {
    ...m,
    notifier,
    settle: async () => {
      await pushJobsSettled(m.w.ctx);
      return { sent: notifier.sent.splice(0), removed: notifier.removed.splice(0) };
    },
  };
}

export const general = (p: PushWorld) => channel(p.w, 'general');

/** Sends a channel message to general and answers its ID. */
export async function sendChannel(p: { w: World }, from: User, topic: string, content: string): Promise<number> {
  return (must(await doSendMessage(p.w.ctx, p.w.as(from), { type: 'stream', to: 'general', topic, content }))).id;
}

/** Sends a direct message and answers its ID. */
export async function sendDirect(p: { w: World }, from: User, to: User[], content: string): Promise<number> {
  return (must(await doSendMessage(p.w.ctx, p.w.as(from), { type: 'direct', to: JSON.stringify(to.map((u) => u.id)), content }))).id;
}

/** Who was notified, with why, in call order. */
export const triggers = (sent: readonly MessagePushNotification[]) => sent.map((n) => [n.userId, n.trigger]);
