/**
 * @teamchat/client against a running server: send a direct message to yourself, read it back,
 * react to it, and listen to your event queue until both events arrive (or a few seconds pass).
 *
 *   TEAMCHAT_URL=http://localhost:9991 TEAMCHAT_EMAIL=you@example.com TEAMCHAT_API_KEY=… \
 *     node --import tsx examples/client-script.ts
 *
 * or pass the three as arguments: `node --import tsx examples/client-script.ts <url> <email> <api-key>`.
 */
import { pathToFileURL } from 'node:url';
import { createClient, type QueueItem } from '@teamchat/client';

export interface ClientScriptOptions {
  url: string;
  email: string;
  apiKey: string;
  /** The longest time to listen for events, in ms. */
  listenMs?: number;
}

/**
 * Answers the message's ID, its Markdown source as read back from the server (`readBack`), and
 * the events the queue delivered: the message, then the reaction.
 */
export async function main(options: ClientScriptOptions) {
  const client = createClient({ url: options.url, email: options.email, apiKey: options.apiKey, userAgent: 'client-script-example/1.0' });

  // Register first, so that the events of what we do next are queued for us.
  const queue = client.eventQueue({ register: { event_types: ['message', 'reaction'] } });
  await queue.start();
  const received: QueueItem[] = [];
  const listening = (async () => {
    for await (const item of queue) {
      received.push(item);
      if (received.length === 2) break;
    }
  })();

  // A direct message to yourself: `to` takes user IDs (a JSON list) or emails.
  const sent = await client.sendMessage({ type: 'direct', to: options.email, content: 'Hello from **@teamchat/client**' });
  const { message } = await client.getMessage({ message_id: sent.id, apply_markdown: false });
  await client.addReaction({ message_id: sent.id, emoji_name: 'wave' });

  const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.listenMs ?? 5000).unref());
  await Promise.race([listening, timeout]);
  await queue.stop();
  return { messageId: sent.id, readBack: message.content, received };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url = process.env.TEAMCHAT_URL, email = process.env.TEAMCHAT_EMAIL, apiKey = process.env.TEAMCHAT_API_KEY] = process.argv.slice(2);
  if (!url || !email || !apiKey) {
    console.error('usage: client-script.ts <url> <email> <api-key> (or TEAMCHAT_URL, TEAMCHAT_EMAIL, TEAMCHAT_API_KEY)');
    process.exit(2);
  }
  const output = await main({ url, email, apiKey });
  console.log(`sent message ${output.messageId}; read back: ${output.readBack}`);
  for (const item of output.received) console.log(`event: ${JSON.stringify(item)}`);
}
