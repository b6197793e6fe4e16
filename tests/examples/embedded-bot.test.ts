import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { closeContext, doSendMessage, doSubscribe, getMessage, openEventStream } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { main, startReactionBot } from '../../examples/embedded-bot.js';
import { makeWorld, must } from '../helpers/core.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/embedded-bot.ts', () => {
  it('reacts in process to a message that mentions the bot', async () => {
    const { reaction } = await main();
    expect(reaction).toEqual({
      type: 'reaction',
      op: 'add',
      user_id: 2,
      message_id: 1,
      emoji_name: 'wave',
      emoji_code: '1f44b',
      reaction_type: 'unicode_emoji',
    });
  });

  it('leaves messages that do not mention it alone, and stops cleanly', async () => {
    const w = await makeWorld({ config: { timers: false } });
    try {
      const botUser = await w.addUser({ email: 'bot@example.com', fullName: 'Helper', bot: true, botOwnerId: w.owner.id });
      must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{ name: 'general' }], principals: [w.owner.id, botUser.id] }));
      const bot = await startReactionBot(w.ctx, w.as(botUser), 'octopus');
      const watching = must(await openEventStream(w.ctx, w.as(w.owner), { event_types: ['reaction'] }));
      const nextReaction = watching[Symbol.asyncIterator]().next();

      const send = async (content: string) =>
        must(await doSendMessage(w.ctx, w.as(w.owner), { type: 'stream', to: 'general', topic: 't', content })) as { id: number };
      const plain = await send('nobody is mentioned here');
      const mentioning = await send('@**Helper** hello');
      // The bot takes its events in order: once the second message has its reaction, it has
      // already passed over the first.
      const { value: event } = await nextReaction;
      expect(event).toMatchObject({ type: 'reaction', op: 'add', user_id: botUser.id, message_id: mentioning.id, emoji_name: 'octopus', emoji_code: '1f419' });
      const first = must(await getMessage(w.ctx, w.as(w.owner), { message_id: plain.id }));
      expect(first.message.reactions).toEqual([]);

      watching.close();
      await bot.stop();
      expect(w.ctx.queues.size).toBe(0);
    } finally {
      await closeContext(w.ctx);
    }
  });

  it('runs as a script', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/embedded-bot.ts'], { cwd: root });
    expect(stdout).toBe('user 2 reacted with :wave: to message 1\n');
  });
});
