/**
 * Outgoing webhooks against a real HTTP server on 127.0.0.1: what is posted (the reference's
 * payload), what is posted back, and each failure's notices (zerver/lib/outgoing_webhook.py).
 */
import { doSendMessage } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { outgoingWorld, reply, waitFor } from './bots-outgoing-helpers.js';

type World = Awaited<ReturnType<typeof outgoingWorld>>;
let current: World | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});
const setup = async (...args: Parameters<typeof outgoingWorld>) => (current = await outgoingWorld(...args));

describe('outgoing webhooks: triggers and payload', () => {
  it('a channel mention posts the Zulip-format payload and the answer goes back to the topic', async () => {
    const c = await setup();
    const [profile] = await c.w.ctx.storage.read((tx) => tx.bots.profiles(c.w.realm.id, [c.echo.id]));
    c.hook.answer = reply(200, { content: 'pong' });
    const id = await c.post(c.member, '@**Echo Bot** ping', 'games');
    await c.settled();
    expect(c.hook.received).toHaveLength(1);
    const request = c.hook.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.contentType).toBe('application/json');
    const payload = JSON.parse(request.body);
    expect(payload).toEqual({
      data: '@**Echo Bot** ping',
      message: expect.objectContaining({
        id,
        type: 'stream',
        content: '@**Echo Bot** ping',
        content_type: 'text/x-markdown',
        rendered_content: expect.stringContaining(`data-user-id="${c.echo.id}"`),
        display_recipient: 'general',
        stream_id: c.general.id,
        subject: 'games',
        sender_id: c.member.id,
        sender_full_name: 'Mel Member',
        sender_email: 'mel@example.com',
        avatar_url: expect.any(String),
      }),
      bot_email: 'echo-bot@chat.example.com',
      bot_full_name: 'Echo Bot',
      token: profile!.service!.token,
      trigger: 'mention',
    });
    const [answer] = (await c.latest(c.member, 1));
    expect(answer).toMatchObject({ sender_id: c.echo.id, content: 'pong', type: 'stream', subject: 'games', client: 'OutgoingWebhookResponse' });
  });

  it('a direct message to the bot has trigger direct_message; the answer goes to the same conversation', async () => {
    const c = await setup();
    c.hook.answer = reply(200, { response_string: 'legacy answer' });
    must(await doSendMessage(c.w.ctx, c.w.as(c.other), { type: 'private', to: JSON.stringify([c.echo.id, c.member.id]), content: 'hello bot' }));
    await c.settled();
    expect(JSON.parse(c.hook.received[0]!.body)).toMatchObject({ trigger: 'direct_message', data: 'hello bot', message: { type: 'private' } });
    const [answer] = await c.latest(c.other, 1);
    expect(answer).toMatchObject({ sender_id: c.echo.id, content: 'legacy answer', type: 'private' });
    expect((answer!.display_recipient as { id: number }[]).map((r) => r.id).sort()).toEqual([c.member.id, c.other.id, c.echo.id].sort());
  });

  it('nothing is posted back for response_not_required, "", a blank or missing content', async () => {
    const c = await setup();
    for (const body of [{ response_not_required: true, content: 'x' }, '""', { content: '   ' }, { other: 1 }]) {
      c.hook.answer = reply(200, body);
      await c.post(c.member, '@**Echo Bot** quiet');
      await c.settled();
    }
    expect(c.hook.received).toHaveLength(4);
    expect((await c.latest(c.member, 10)).filter((m) => m.sender_id === c.echo.id)).toEqual([]);
  });

  it('no request without a mention, for silent mentions, for messages sent by bots, or for other bot types', async () => {
    const c = await setup();
    const generic = await c.createBot(c.member, { full_name: 'Plain Bot', short_name: 'plain' });
    await c.post(c.member, 'Echo Bot, are you there?');
    await c.post(c.member, '@_**Echo Bot** silently');
    await c.post(c.member, '@**Plain Bot** hi');
    must(await doSendMessage(c.w.ctx, c.w.as(generic), { type: 'stream', to: 'general', topic: 'x', content: '@**Echo Bot** from a bot' }));
    must(await doSendMessage(c.w.ctx, c.w.as(c.echo), { type: 'private', to: JSON.stringify([c.member.id]), content: 'unprompted' }));
    await c.settled();
    expect(c.hook.received).toEqual([]);
  });

  it('a deactivated bot is not called', async () => {
    const c = await setup();
    const { doDeactivateBot } = await import('@teamchat/core');
    must(await doDeactivateBot(c.w.ctx, c.w.as(c.member), { bot_id: c.echo.id }));
    await c.post(c.member, '@**Echo Bot** anyone?');
    await c.settled();
    expect(c.hook.received).toEqual([]);
  });

  it('the sender does not wait for the bot, and a rolled-back send calls nobody', async () => {
    const c = await setup({ timeoutMs: 5_000 });
    let release: () => void = () => undefined;
    c.hook.answer = (_req, res) => {
      release = () => res.writeHead(200).end(JSON.stringify({ content: 'late' }));
    };
    await c.post(c.member, '@**Echo Bot** slow one');
    // The send has answered; the bot's server gets the request and has not answered yet.
    await waitFor(() => c.hook.received.length === 1);
    expect((await c.latest(c.member, 1))[0]!.content).toBe('@**Echo Bot** slow one');
    release();
    await c.settled();
    expect((await c.latest(c.member, 1))[0]!.content).toBe('late');
    // Refused sends (an unknown channel) never reach the bot.
    expect((await doSendMessage(c.w.ctx, c.w.as(c.member), { type: 'stream', to: 'nowhere', topic: 't', content: '@**Echo Bot**' })).isErr()).toBe(true);
    await c.settled();
    expect(c.hook.received).toHaveLength(1);
  });
});
