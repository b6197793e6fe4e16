/** POST /messages/render: the caller's Markdown as a sent message would render, with the reference's limits. */
import { doAddLinkifier, doSubscribe, getRenderedMessage } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { makeWorld, must } from '../helpers/core.js';
import { expectBadRequest, expectError } from './fixtures.js';

describe('getRenderedMessage', () => {
  it('renders with the realm context: mentions, channel links the caller may read, linkifiers', async () => {
    const w = await makeWorld({ config: { timers: false } });
    const bob = await w.addUser({ email: 'bob@example.com', fullName: 'Bob Builder' });
    must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"general"}] }));
    must(await doSubscribe(w.ctx, w.as(w.owner), { subscriptions: [{"name":"secret"}], invite_only: true }));
    must(await doAddLinkifier(w.ctx, w.as(w.owner), { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' }));
    const render = async (content: string) => must(await getRenderedMessage(w.ctx, w.as(bob), { content })).rendered;

    expect(await render('**hi**')).toBe('<p><strong>hi</strong></p>');
    expect(await render('@**Olivia Owner**')).toContain(`data-user-id="${w.owner.id}"`);
    expect(await render('#**general**')).toContain('class="stream"');
    // Bob may not read the private channel: as when sending, it is not linked.
    expect(await render('#**secret**')).not.toContain('class="stream"');
    expect(await render('see #42')).toContain('href="https://tracker.example.com/42"');
  });

  it('stores and announces nothing', async () => {
    const w = await makeWorld({ config: { timers: false } });
    const published: unknown[] = [];
    w.ctx.events.subscribe((event) => published.push(event));
    must(await getRenderedMessage(w.ctx, w.as(w.owner), { content: 'hello' }));
    expect(published).toEqual([]);
    expect(await w.ctx.storage.read((tx) => tx.messages.byIds(w.realm.id, [1]))).toEqual([]);
  });

  it('renders empty content as empty, as the reference does', async () => {
    const w = await makeWorld({ config: { timers: false } });
    expect(must(await getRenderedMessage(w.ctx, w.as(w.owner), { content: '' }))).toEqual({ rendered: '' });
  });

  it('refuses content longer than max_message_length (code points) before rendering, and missing or non-text content', async () => {
    const w = await makeWorld({ config: { timers: false, maxMessageLength: 10 } });
    expect(must(await getRenderedMessage(w.ctx, w.as(w.owner), { content: '𝒳'.repeat(10) })).rendered).toBe(`<p>${'𝒳'.repeat(10)}</p>`);
    expectBadRequest(await getRenderedMessage(w.ctx, w.as(w.owner), { content: 'x'.repeat(11) }), 'content is too long (limit: 10 characters)');
    expectError(await getRenderedMessage.fromTransport(w.ctx, w.as(w.owner), {}), 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument", 400, { var_name: 'content' });
    expectBadRequest(await getRenderedMessage.fromTransport(w.ctx, w.as(w.owner), { content: 5 }), 'content is not a string');
    expectError(await getRenderedMessage(w.ctx, { realm: w.realm, user: null }, { content: 'x' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});
