/**
 * Outgoing webhook failures: each gives the reference's "Failure! …" message where the bot was
 * called and a notice to the bot's owner, never a crash or an unhandled rejection. Also the
 * Slack-compatible interface, the concurrency bound and shutdown with a request in flight.
 */
import { closeContext, doSendMessage } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { outgoingWorld, reply, waitFor } from './bots-outgoing-helpers.js';
import type { ServerResponse } from 'node:http';

type World = Awaited<ReturnType<typeof outgoingWorld>>;
let current: World | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});
const setup = async (...args: Parameters<typeof outgoingWorld>) => (current = await outgoingWorld(...args));

/** What the bot said in the topic, and what it told its owner, after one mention. */
async function outcome(c: World, content = '@**Echo Bot** do it') {
  const id = await c.post(c.member, content, 'work');
  await c.settled();
  const fromBot = (await c.latest(c.member, 10)).filter((m) => m.sender_id === c.echo.id);
  return {
    id,
    inTopic: fromBot.filter((m) => m.type === 'stream').map((m) => m.content),
    toOwner: fromBot.filter((m) => m.type === 'private').map((m) => m.content),
  };
}

const intro = (c: World, id: number) =>
  `[A message](http://chat.example.com/#narrow/channel/${c.general.id}-general/topic/work/near/${id}) to your bot @_**Echo Bot** triggered an outgoing webhook.`;

describe('outgoing webhooks: failures', () => {
  it('a non-2xx answer: "Third party responded with …", and the owner gets the status and payload', async () => {
    const c = await setup();
    c.hook.answer = reply(500, "it's broken");
    const { id, inTopic, toOwner } = await outcome(c);
    expect(inTopic).toEqual(['Failure! Third party responded with 500']);
    expect(toOwner).toEqual([
      `${intro(c, id)}\nThe webhook got a response with status code *500*.\nThe response contains the following payload:\n\`\`\`\nb"it's broken"\n\`\`\``,
    ]);
    // Not retried: one request.
    expect(c.hook.received).toHaveLength(1);
  });

  it('bad JSON and a JSON answer that is not an object', async () => {
    const c = await setup();
    c.hook.answer = reply(200, 'not json');
    const first = await outcome(c);
    expect(first.inTopic).toEqual(['Failure! Invalid JSON in response']);
    expect(first.toOwner).toEqual([
      `${intro(c, first.id)}\nThe outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response\nThe response contains the following payload:\n\`\`\`\n'not json'\n\`\`\``,
    ]);
    c.hook.answer = reply(200, [1, 2]);
    const second = await outcome(c);
    expect(second.inTopic.at(-1)).toBe('Failure! Invalid response format');
  });

  it('connection refused: retried, then "Bot is unavailable" and the owner is told why', async () => {
    const c = await setup({ maxRetries: 2 });
    const url = c.hook.url;
    await c.hook.close();
    const { id, inTopic, toOwner } = await outcome(c);
    expect(inTopic).toEqual(['Failure! Bot is unavailable']);
    expect(toOwner).toEqual([`${intro(c, id)}\nA connection error occurred. Is my bot server down?`]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hook$/);
  });

  it('a timeout: each attempt is cut at timeoutMs; after the retries the bot is unavailable', async () => {
    const c = await setup({ timeoutMs: 150, maxRetries: 1 });
    c.hook.answer = () => undefined; // never answers
    const started = Date.now();
    const { id, inTopic, toOwner } = await outcome(c);
    expect(c.hook.received).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(inTopic).toEqual(['Failure! Bot is unavailable']);
    expect(toOwner).toEqual([`${intro(c, id)}\nRequest timed out after 0.15 seconds.`]);
  });

  it('an answer over maxResponseBytes is not read to its end and counts as a failure', async () => {
    const c = await setup({ maxResponseBytes: 1000 });
    c.hook.answer = reply(200, { content: 'x'.repeat(5000) });
    const { inTopic, toOwner } = await outcome(c);
    expect(inTopic).toEqual(['Failure! The response is larger than 1000 bytes.']);
    expect(toOwner[0]).toContain('The response was larger than the 1000 bytes allowed.');
  });

  it('an exception from the injected fetch names its type to the topic and the owner', async () => {
    const c = await setup({
      fetch: async () => {
        throw new RangeError('boom');
      },
    });
    const { id, inTopic, toOwner } = await outcome(c, '@**Echo Bot** `code`');
    expect(inTopic).toEqual(['Failure! An exception of type *RangeError* occurred for message `@**Echo Bot** `code``! See the server logs for more information.']);
    expect(toOwner).toEqual([`${intro(c, id)}\nWhen trying to send a request to the webhook service, an exception of type RangeError occurred:\n\`\`\`\nboom\n\`\`\``]);
  });

  it('a bot whose URL was never set fails with an exception notice, not a crash', async () => {
    const c = await setup({}, { payload_url: undefined });
    const { inTopic } = await outcome(c);
    expect(inTopic).toEqual(["Failure! An exception of type *InvalidURL* occurred for message `@**Echo Bot** do it`! See the server logs for more information."]);
  });
});

describe('outgoing webhooks: Slack-compatible interface', () => {
  it('posts the form fields and answers with `text`; direct messages are refused', async () => {
    const c = await setup({}, { interface_type: '2' });
    const [profile] = await c.w.ctx.storage.read((tx) => tx.bots.profiles(c.w.realm.id, [c.echo.id]));
    c.hook.answer = reply(200, { text: 'slack says hi' });
    const { id, inTopic } = await outcome(c, '@**Echo Bot** hi');
    const request = c.hook.received[0]!;
    expect(request.contentType).toContain('application/x-www-form-urlencoded');
    const form = Object.fromEntries(new URLSearchParams(request.body));
    expect(form).toEqual({
      token: profile!.service!.token,
      team_id: `T${c.w.realm.id}`,
      team_domain: 'chat.example.com',
      channel_id: `C${c.general.id}`,
      channel_name: 'general',
      thread_ts: expect.stringMatching(/^\d+$/),
      timestamp: expect.stringMatching(/^\d+$/),
      user_id: `U${c.member.id}`,
      user_name: 'Mel Member',
      text: '@**Echo Bot** hi',
      trigger_word: 'mention',
      service_id: String(c.echo.id),
    });
    expect(id).toBeGreaterThan(0);
    expect(inTopic).toEqual(['slack says hi']);

    must(await doSendMessage(c.w.ctx, c.w.as(c.member), { type: 'private', to: JSON.stringify([c.echo.id]), content: 'psst' }));
    await c.settled();
    const [last] = await c.latest(c.member, 1);
    expect(last).toMatchObject({ sender_id: c.echo.id, type: 'private', content: "Failure! Slack outgoing webhooks don't support direct messages." });
    expect(c.hook.received).toHaveLength(1);
  });
});

describe('outgoing webhooks: limits and shutdown', () => {
  it('at most `concurrency` requests are in flight', async () => {
    const c = await setup({ concurrency: 2, timeoutMs: 5_000 });
    const held: ServerResponse[] = [];
    c.hook.answer = (_req, res) => void held.push(res);
    for (let i = 0; i < 6; i++) await c.post(c.member, `@**Echo Bot** ${i}`);
    await waitFor(() => c.hook.received.length === 2);
    // The other four wait for a free slot while the first two are unanswered.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.hook.received).toHaveLength(2);
    c.hook.answer = reply(200, {});
    for (const res of held) res.writeHead(200).end('{}');
    await c.settled();
    expect(c.hook.received).toHaveLength(6);
  });

  it('closing the context aborts a request in flight; nothing is posted and nothing rejects', async () => {
    const c = await setup({ timeoutMs: 10_000 });
    c.hook.answer = () => undefined;
    await c.post(c.member, '@**Echo Bot** never answered');
    await waitFor(() => c.hook.received.length === 1);
    const started = Date.now();
    await closeContext(c.w.ctx);
    expect(Date.now() - started).toBeLessThan(2_000);
    await c.hook.close();
    current = undefined;
  });
});
