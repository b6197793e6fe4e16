/** Linkifiers in the core: add, list, update, delete, reorder, register, events, rendering. */
import { doAddLinkifier, doRemoveLinkifier, doReorderLinkifiers, doSendMessage, doUpdateLinkifier, doUpdateMessage, getLinkifiers, getMessage, getMessages } from '@teamchat/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, ids, queued, recipientsOf, register, subscribe } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
});

const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
const CAPABLE = { client_capabilities: '{"linkifier_url_template":true}' };

const add = async (params: Record<string, unknown> = ISSUES, user = c.admin) => (must(await doAddLinkifier.fromTransport(c.w.ctx, c.w.as(user), params))).id;
const list = async (user = c.member) => (must(await getLinkifiers(c.w.ctx, c.w.as(user), {}))).linkifiers;
const reorder = (order: number[], user = c.admin) => doReorderLinkifiers(c.w.ctx, c.w.as(user), { ordered_linkifier_ids: order });
const linkifierOf = (id: number, params: Record<string, unknown> = ISSUES) => ({
  id,
  pattern: params.pattern,
  url_template: params.url_template,
  example_input: null,
  reverse_template: null,
  alternative_url_templates: [],
});

describe('adding and listing', () => {
  it('an administrator adds; every user lists them in order with every field; register shows them to capable clients', async () => {
    const full = { ...ISSUES, example_input: '#1234', reverse_template: '#{id}', alternative_url_templates: '["https://github.com/zulip/zulip/pull/{id}"]' };
    const first = await add(full);
    const second = await add({ pattern: ' JIRA-(?P<key>[A-Z]+-[0-9]+) ', url_template: ' https://jira.example.com/browse/{key} ' }, c.w.owner);
    const expected = [
      { ...linkifierOf(first), example_input: '#1234', reverse_template: '#{id}', alternative_url_templates: ['https://github.com/zulip/zulip/pull/{id}'] },
      // pattern and url_template are stored stripped.
      linkifierOf(second, { pattern: 'JIRA-(?P<key>[A-Z]+-[0-9]+)', url_template: 'https://jira.example.com/browse/{key}' }),
    ];
    expect(await list(c.guest)).toEqual(expected);
    const capable = await register(c.w, c.guest, { fetch_event_types: '["realm_linkifiers","realm_filters"]', ...CAPABLE });
    expect([capable.realm_linkifiers, capable.realm_filters]).toEqual([expected, []]);
    const legacy = await register(c.w, c.guest, { fetch_event_types: '["realm_linkifiers","realm_filters"]' });
    expect([legacy.realm_linkifiers, legacy.realm_filters]).toEqual([[], []]);
  });

  it('only administrators change linkifiers; spectators are not logged in; nothing changes or is published', async () => {
    const id = await add();
    c.drain();
    for (const user of [c.moderator, c.member, c.guest]) {
      const denied = (r: Parameters<typeof expectError>[0]) => expectError(r, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator', 400);
      denied(await doAddLinkifier(c.w.ctx, c.w.as(user), { pattern: 'x(?P<a>y)', url_template: 'https://x/{a}' }));
      denied(await doUpdateLinkifier(c.w.ctx, c.w.as(user), { filter_id: id, ...ISSUES, url_template: 'https://x/{id}' }));
      denied(await doRemoveLinkifier(c.w.ctx, c.w.as(user), { filter_id: id }));
      denied(await reorder([id], user));
    }
    const anonymous = { realm: c.w.realm, user: null };
    const notLoggedIn = 'Not logged in: API authentication or user session required';
    expectError(await getLinkifiers(c.w.ctx, anonymous, {}), 'UNAUTHORIZED', notLoggedIn, 401);
    expectError(await doAddLinkifier(c.w.ctx, anonymous, ISSUES), 'UNAUTHORIZED', notLoggedIn, 401);
    expect(await list()).toEqual([linkifierOf(id)]);
    expect(c.drain()).toEqual([]);
  });

  it('missing and malformed parameters', async () => {
    const as = c.w.as(c.admin);
    const missing = (r: Parameters<typeof expectError>[0], name: string) => expectError(r, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });
    missing(await doAddLinkifier.fromTransport(c.w.ctx, as, { url_template: 'https://x' }), 'pattern');
    missing(await doAddLinkifier.fromTransport(c.w.ctx, as, { pattern: 'x' }), 'url_template');
    missing(await doUpdateLinkifier.fromTransport(c.w.ctx, as, { filter_id: 1, pattern: 'x' }), 'url_template');
    expectBadRequest(await doAddLinkifier.fromTransport(c.w.ctx, as, { ...ISSUES, alternative_url_templates: [1] }), 'alternative_url_templates[0] is not a string');
    expectBadRequest(await doAddLinkifier.fromTransport(c.w.ctx, as, { ...ISSUES, alternative_url_templates: '[' }), 'alternative_url_templates is not valid JSON');
    expectBadRequest(await doUpdateLinkifier.fromTransport(c.w.ctx, as, { filter_id: 'abc', ...ISSUES }), 'filter_id is not an integer');
    expectBadRequest(await doReorderLinkifiers.fromTransport(c.w.ctx, as, { ordered_linkifier_ids: ["a"] }), 'ordered_linkifier_ids[0] is not an integer');
    missing(await doReorderLinkifiers.fromTransport(c.w.ctx, as, {}), 'ordered_linkifier_ids');
    expect(c.drain()).toEqual([]);
  });
});

describe('updating, deleting and reordering', () => {
  it('PATCH replaces the fields in place; DELETE removes; unknown and other realms\' IDs are "Linkifier not found."', async () => {
    const a = await add();
    const b = await add({ pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}' });
    const changed = { pattern: '#(?P<num>[0-9]+)', url_template: 'https://example.com/{num}' };
    must(await doUpdateLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: a, ...changed }));
    expect((await list()).map((l) => l.id)).toEqual([a, b]);
    expect((await list())[0]).toEqual(linkifierOf(a, changed));
    // Keeping its own pattern is not a duplicate; taking another's is.
    must(await doUpdateLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: a, ...changed }));
    expectError(await doUpdateLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: a, pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}' }), 'BAD_REQUEST', 'Realm filter with this Realm and Pattern already exists.', 400, {
      errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
    });

    const other = await secondRealm(c.w.ctx);
    const theirs = (must(await doAddLinkifier(c.w.ctx, { realm: other.realm, user: other.owner }, ISSUES))).id;
    c.drain();
    for (const unknown of [theirs, 9999]) {
      expectBadRequest(await doUpdateLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: unknown, ...ISSUES }), 'Linkifier not found.');
      expectBadRequest(await doRemoveLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: unknown }), 'Linkifier not found.');
    }
    expect(c.drain()).toEqual([]);
    must(await doRemoveLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: b }));
    expect((await list()).map((l) => l.id)).toEqual([a]);
    expectBadRequest(await doRemoveLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: b }), 'Linkifier not found.');
    // The other realm's linkifier was never touched, and the same pattern lives in both realms.
    expect((must(await getLinkifiers(c.w.ctx, { realm: other.realm, user: other.owner }, {}))).linkifiers).toEqual([linkifierOf(theirs)]);
  });

  it('PATCH /realm/linkifiers sets the order, naming every linkifier exactly once', async () => {
    const [a, b, d] = [await add(), await add({ pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}' }), await add({ pattern: 'U(?P<n>[0-9]+)', url_template: 'https://u/{n}' })];
    const other = await secondRealm(c.w.ctx);
    const theirs = (must(await doAddLinkifier(c.w.ctx, { realm: other.realm, user: other.owner }, ISSUES))).id;
    c.drain();
    expectBadRequest(await reorder([a, a, b, d]), 'The ordered list must not contain duplicated linkifiers');
    for (const wrong of [[a, b], [a, b, d, 9999], [a, b, theirs], []]) {
      expectBadRequest(await reorder(wrong), 'The ordered list must enumerate all existing linkifiers exactly once');
    }
    expect(c.drain()).toEqual([]);
    must(await reorder([d!, a!, b!]));
    expect((await list()).map((l) => l.id)).toEqual([d, a, b]);
    // New ones go last.
    const e = await add({ pattern: 'V(?P<n>[0-9]+)', url_template: 'https://v/{n}' });
    expect((await list()).map((l) => l.id)).toEqual([d, a, b, e]);
  });
});

describe('events', () => {
  it('realm_linkifiers with the whole list to every active user, only on queues with linkifier_url_template', async () => {
    const capable = await register(c.w, c.member, { event_types: '["realm_linkifiers"]', ...CAPABLE });
    const legacy = await register(c.w, c.member, { event_types: '["realm_linkifiers","realm_filters"]' });
    const a = await add();
    const b = await add({ pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}' });
    must(await reorder([b, a]));
    must(await doRemoveLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: b }));
    const T = linkifierOf(b, { pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}' });
    expect(await queued(c.w, c.member, capable.queue_id)).toEqual([
      { id: 0, type: 'realm_linkifiers', realm_linkifiers: [linkifierOf(a)] },
      { id: 1, type: 'realm_linkifiers', realm_linkifiers: [linkifierOf(a), T] },
      { id: 2, type: 'realm_linkifiers', realm_linkifiers: [T, linkifierOf(a)] },
      { id: 3, type: 'realm_linkifiers', realm_linkifiers: [linkifierOf(a)] },
    ]);
    expect(await queued(c.w, c.member, legacy.queue_id)).toEqual([]);
    const everyone = ids(c.w.owner, c.admin, c.moderator, c.member, c.other, c.guest, c.bot);
    expect(recipientsOf(c.drain(), 'realm_linkifiers')).toEqual([everyone, everyone, everyone, everyone]);
  });

  it('verify_action: the events applied to the registered list give what a fresh register shows', async () => {
    const before = await register(c.w, c.other, { fetch_event_types: '["realm_linkifiers"]', ...CAPABLE });
    let state = before.realm_linkifiers as unknown[];
    const a = await add();
    const b = await add({ pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}' });
    must(await doUpdateLinkifier(c.w.ctx, c.w.as(c.admin), { filter_id: a, ...ISSUES, example_input: '#5' }));
    must(await reorder([b, a]));
    for (const event of await queued(c.w, c.other, before.queue_id)) state = event.realm_linkifiers as unknown[];
    expect(state).toEqual((await register(c.w, c.other, { fetch_event_types: '["realm_linkifiers"]', ...CAPABLE })).realm_linkifiers);
  });
});

describe('rendering', () => {
  const sendTo = async (content: string, topic = 'greetings') =>
    (must(await doSendMessage(c.w.ctx, c.w.as(c.w.owner), { type: 'stream', to: 'general', topic, content }))).id;
  const read = async (id: number) =>
    (must(await getMessage(c.w.ctx, c.w.as(c.w.owner), { message_id: id })) as { message: { content: string; topic_links: unknown[] } }).message;
  beforeEach(async () => {
    await subscribe(c.w, c.w.owner, ['general']);
  });

  it('messages link the realm\'s matches; GET /messages, GET /messages/{id} and the message event carry topic_links', async () => {
    await add();
    const queue = await register(c.w, c.w.owner, { event_types: '["message"]' });
    const id = await sendTo('fixes #123, not x#4', 'bug #77 at example.com');
    const links = [
      { text: '#77', url: 'https://github.com/zulip/zulip/issues/77' },
      { text: 'example.com', url: 'https://example.com' },
    ];
    const message = await read(id);
    expect(message.content).toBe('<p>fixes <a href="https://github.com/zulip/zulip/issues/123">#123</a>, not x#4</p>');
    expect(message.topic_links).toEqual(links);
    const fetched = must(await getMessages(c.w.ctx, c.w.as(c.w.owner), { anchor: 'newest', num_before: 1, num_after: 0 })) as { messages: Array<{ topic_links: unknown }> };
    expect(fetched.messages.at(-1)!.topic_links).toEqual(links);
    const [event] = await queued(c.w, c.w.owner, queue.queue_id);
    expect((event!.message as { topic_links: unknown }).topic_links).toEqual(links);
  });

  it('earlier linkifiers take precedence; reordering changes which one links', async () => {
    const a = await add();
    const b = await add({ pattern: '#(?P<n>1[0-9])', url_template: 'https://x/{n}' });
    expect((await read(await sendTo('#12'))).content).toBe('<p><a href="https://github.com/zulip/zulip/issues/12">#12</a></p>');
    must(await reorder([b, a]));
    expect((await read(await sendTo('#12'))).content).toBe('<p><a href="https://x/12">#12</a></p>');
  });

  it('an edit renders with the linkifiers and a topic change gets new topic_links', async () => {
    await add();
    const id = await sendTo('nothing yet');
    must(await doUpdateMessage(c.w.ctx, c.w.as(c.w.owner), { message_id: id, content: 'now #9', topic: 'issue #10' }));
    const message = await read(id);
    expect(message.content).toBe('<p>now <a href="https://github.com/zulip/zulip/issues/9">#9</a></p>');
    expect(message.topic_links).toEqual([{ text: '#10', url: 'https://github.com/zulip/zulip/issues/10' }]);
  });

  it('a catastrophic-backtracking pattern cannot hang rendering: RE2 matches in linear time', async () => {
    // JavaScript's backtracking engine takes time exponential in the run of a's for this pattern.
    await add({ pattern: '(?P<a>(a+)+)$', url_template: 'https://x/{a}' });
    const content = `${'a'.repeat(9000)}!`;
    const started = Date.now();
    const id = await sendTo(content, `${'a'.repeat(50)}!`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await read(id)).content).toBe(`<p>${content}</p>`);
  });
});
