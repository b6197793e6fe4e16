/**
 * A bot that lives in the same process as the chat engine: it follows its own events through
 * `openEventStream` and reacts with an emoji to every message that mentions it. No HTTP, no
 * polling loop of its own, no API key on the wire.
 * Run with `node --import tsx examples/embedded-bot.ts`.
 */
import {
  type Caller,
  closeContext,
  type Ctx,
  createRealm,
  createUserAsOperator,
  doAddReaction,
  doSendMessage,
  doSubscribe,
  openEventStream,
  type ReactionEvent,
  startBackgroundWork,
} from '@teamchat/core';
import { createSqliteContext } from '@teamchat/core/sqlite';

/** A running bot; `stop` ends its event stream and waits for the reaction in progress. */
export interface RunningBot {
  stop(): Promise<void>;
}

/**
 * Starts a bot acting as `bot`: each message event flagged `mentioned` for it (an @-mention of
 * the bot, or of a group it is in) gets `emoji` as a reaction. A failed reaction is reported and
 * the bot carries on with the next message.
 */
export async function startReactionBot(ctx: Ctx, bot: Caller, emoji = 'wave'): Promise<RunningBot> {
  // The same parameters as POST /register: only message events reach this stream.
  const opened = await openEventStream(ctx, bot, { event_types: ['message'] });
  if (opened.isErr()) throw new Error(`the bot cannot follow its events: ${opened.error.msg}`);
  const stream = opened.value;

  const running = (async () => {
    for await (const event of stream) {
      if (event.type !== 'message' || !event.flags.includes('mentioned')) continue;
      const reacted = await doAddReaction(ctx, bot, { message_id: event.message.id, emoji_name: emoji });
      if (reacted.isErr()) console.error(`could not react to message ${event.message.id}: ${reacted.error.msg}`);
    }
  })();

  return {
    async stop() {
      stream.close();
      await running;
    },
  };
}

/** What the example observed: the reaction event the human user received. */
export interface BotExampleOutput {
  reaction: ReactionEvent;
}

export async function main(): Promise<BotExampleOutput> {
  // An in-memory database; pass { databaseFile: 'chat.db' } to keep the data.
  const ctx = createSqliteContext();
  // Scheduled messages, reminders and the sweeps run in this process too.
  const work = startBackgroundWork(ctx);
  try {
    const created = await createRealm(ctx, {
      name: 'Example Org',
      url: 'http://localhost:9991',
      owner: { email: 'owner@example.org', fullName: 'Olivia Owner', password: 'correct horse' },
    });
    if (created.isErr()) throw new Error(created.error.msg);
    const { realm, owner } = created.value;
    const asOwner = { realm, user: owner };

    const addedBot = await createUserAsOperator(ctx, realm, {
      email: 'greeter-bot@example.org',
      fullName: 'Greeter',
      bot: true,
      botOwnerId: owner.id,
    });
    if (addedBot.isErr()) throw new Error(addedBot.error.msg);
    const asBot = { realm, user: addedBot.value };

    // A channel with both of them in it (subscribing to a channel that does not exist creates it).
    const subscribed = await doSubscribe(ctx, asOwner, { subscriptions: [{ name: 'general' }], principals: [owner.id, asBot.user.id] });
    if (subscribed.isErr()) throw new Error(subscribed.error.msg);

    const bot = await startReactionBot(ctx, asBot);
    // Olivia watches reactions, as a client would, to see the bot's answer arrive.
    const watching = await openEventStream(ctx, asOwner, { event_types: ['reaction'] });
    if (watching.isErr()) throw new Error(watching.error.msg);
    const nextReaction = watching.value[Symbol.asyncIterator]().next();

    const sent = await doSendMessage(ctx, asOwner, { type: 'stream', to: 'general', topic: 'hello', content: 'Hi @**Greeter**!' });
    if (sent.isErr()) throw new Error(sent.error.msg);

    const { value: event } = await nextReaction;
    watching.value.close();
    await bot.stop();
    if (event?.type !== 'reaction') throw new Error('the stream ended without a reaction');
    const { id: _queueEventId, ...reaction } = event;
    return { reaction };
  } finally {
    await work.stop();
    await closeContext(ctx);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { reaction } = await main();
  console.log(`user ${reaction.user_id} reacted with :${reaction.emoji_name}: to message ${reaction.message_id}`);
}
