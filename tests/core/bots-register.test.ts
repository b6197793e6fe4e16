/** A bot's default_all_public_streams and default_events_register_stream as defaults of the queues it registers. */
import { doRegister, getEvents, type QueuedEvent, type User } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must, type World } from '../helpers/core.js';
import { botWorld } from './bot-helpers.js';
import { subscribe } from './channel-helpers.js';

async function registerAs(w: World, bot: User, params: Record<string, unknown> = {}): Promise<string> {
  return (must(await doRegister(w.ctx, w.as(bot), { event_types: ["message"], fetch_event_types: [], ...params })) as { queue_id: string }).queue_id;
}

async function messagesIn(w: World, bot: User, queueId: string): Promise<string[]> {
  const { events } = must(await getEvents(w.ctx, w.as(bot), { queue_id: queueId, dont_block: true }));
  return events.filter((e) => e.type === 'message').map((e) => (e.message).content);
}

describe('register defaults of a bot', () => {
  it('all_public_streams left out follows default_all_public_streams; sent, it wins', async () => {
    const { w, member, post, createBot } = await botWorld();
    const bot = await createBot(member, { short_name: 'watcher', default_all_public_streams: true });
    const byDefault = await registerAs(w, bot);
    const refused = await registerAs(w, bot, { all_public_streams: 'false' });
    await post(member, 'in general');
    expect(await messagesIn(w, bot, byDefault)).toEqual(['in general']);
    expect(await messagesIn(w, bot, refused)).toEqual([]);
  });

  it('an empty narrow becomes the default events register channel; a given narrow wins', async () => {
    const { w, member, post, createBot } = await botWorld();
    const bot = await createBot(member, { short_name: 'narrow', default_events_register_stream: 'general' });
    await subscribe(w, w.owner, ['general', 'random'], { principals: [bot.id, member.id] });
    const byDefault = await registerAs(w, bot);
    const given = await registerAs(w, bot, { narrow: JSON.stringify([['stream', 'random']]) });
    await post(member, 'general talk');
    await post(member, 'random talk', 'x', 'random');
    expect(await messagesIn(w, bot, byDefault)).toEqual(['general talk']);
    expect(await messagesIn(w, bot, given)).toEqual(['random talk']);
  });

  it('people are unaffected, and a guest bot may not default to all public channels', async () => {
    const { w, member, admin, post, createBot } = await botWorld();
    const queue = await registerAs(w, member);
    await post(admin, 'hello');
    expect(await messagesIn(w, member, queue)).toEqual(['hello']);
    const bot = await createBot(member, { short_name: 'guesty', default_all_public_streams: true });
    const { doUpdateBot } = await import('@teamchat/core');
    must(await doUpdateBot(w.ctx, w.as(admin), { bot_id: bot.id, role: 600 }));
    const refused = await doRegister(w.ctx, w.as({ ...bot, role: 600 }), { event_types: ["message"] });
    expect(refused.isErr() && refused.error.msg).toBe('User not authorized for this query');
  });
});
