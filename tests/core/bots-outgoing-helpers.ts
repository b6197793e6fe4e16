/**
 * Outgoing webhook test rig: a real `node:http` server on 127.0.0.1 whose answers each test
 * scripts, a world whose context posts to it with short timeouts, and readers for what the bot
 * posted back.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeContext, getMessages, type OutgoingWebhookOptions, outgoingWebhooksSettled, type User } from '@teamchat/core/internal';
import { must } from '../helpers/core.js';
import { botWorld } from './bot-helpers.js';

export interface Received {
  method: string;
  contentType: string;
  body: string;
}

export interface HookServer {
  url: string;
  received: Received[];
  /** How the next requests are answered; the default answers `{}` (nothing to post). */
  answer: (req: Received, res: ServerResponse) => void;
  close(): Promise<void>;
}

/** Starts the scripted server on an ephemeral port of 127.0.0.1. */
export async function hookServer(): Promise<HookServer> {
  const hook: HookServer = {
    url: '',
    received: [],
    answer: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('utf8') };
      hook.received.push(received);
      hook.answer(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hook.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return hook;
}

/** Polls `condition` every 10 ms until it holds (or fails the test after `ms`). */
export async function waitFor(condition: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('waitFor: condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Answers with `status` and a JSON (or raw text) body. */
export const reply = (status: number, body: unknown) => (_req: Received, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** The bot world with a hook server and an outgoing webhook bot of the member's pointing at it. */
export async function outgoingWorld(options: Partial<OutgoingWebhookOptions> = {}, bot: Record<string, unknown> = {}) {
  const hook = await hookServer();
  const bw = await botWorld({ outgoingWebhooks: { timeoutMs: 400, maxRetries: 1, ...options } });
  const echo = await bw.createBot(bw.member, { full_name: 'Echo Bot', short_name: 'echo', bot_type: 3, payload_url: JSON.stringify(hook.url), ...bot });
  const settled = () => outgoingWebhooksSettled(bw.w.ctx);
  /** The newest messages `user` can see in the whole realm, oldest first, with the fields the tests read. */
  const latest = async (user: User, count = 5) => {
    const page = must(await getMessages(bw.w.ctx, bw.w.as(user), { anchor: 'newest', num_before: count, num_after: 0, apply_markdown: false })) as {
      messages: Array<{ id: number; sender_id: number; content: string; type: string; subject: string; client: string; display_recipient: unknown }>;
    };
    return page.messages;
  };
  const close = async () => {
    await closeContext(bw.w.ctx);
    await hook.close();
  };
  return { ...bw, hook, echo, settled, latest, close };
}
