/**
 * Shared pieces of the message tests: the channel world (every role) with a public channel
 * `general` (everyone but the guest), a private channel `secret` (admin and member) and helpers
 * to send, fetch and poll.
 */
import { doSendMessage, getMessages, type Stream, type User } from '@teamchat/core';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channel, channelWorld, subscribe } from './channel-helpers.js';

export interface MessageWorld extends ChannelWorld {
  general: Stream;
  secret: Stream;
  send(user: User, params: Record<string, unknown>): Promise<number>;
  /** Sends a channel message to `general` (or another channel) and returns its ID. */
  post(user: User, content: string, topic?: string, to?: string): Promise<number>;
  /** IDs GET /messages answers for the user, oldest first, with the narrow (JSON text or value). */
  fetchIds(user: User, narrow?: unknown, extra?: Record<string, unknown>): Promise<number[]>;
}

export async function messageWorld(options: Parameters<typeof channelWorld>[0] = {}): Promise<MessageWorld> {
  const cw = await channelWorld(options);
  const { w, admin, moderator, member, other } = cw;
  await subscribe(w, w.owner, ['general'], { principals: [w.owner.id, admin.id, moderator.id, member.id, other.id] });
  await subscribe(w, admin, ['secret'], { invite_only: true, principals: [admin.id, member.id] });
  const send = async (user: User, params: Record<string, unknown>) => (must(await doSendMessage.fromTransport(w.ctx, w.as(user), params))).id;
  cw.drain();
  return {
    ...cw,
    general: await channel(w, 'general'),
    secret: await channel(w, 'secret'),
    send,
    post: (user, content, topic = 'lunch', to = 'general') => send(user, { type: 'stream', to, topic, content }),
    async fetchIds(user, narrow = [], extra = {}) {
      const page = must(
        await getMessages.fromTransport(w.ctx, w.as(user), {
          anchor: 'oldest',
          num_before: 0,
          num_after: 1000,
          narrow: typeof narrow === 'string' ? narrow : JSON.stringify(narrow),
          ...extra,
        }),
      ) as { messages: Array<{ id: number }> };
      return page.messages.map((m) => m.id);
    },
  };
}
