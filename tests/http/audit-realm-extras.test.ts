/**
 * Acceptance audit of linkifier updates (API.md 2.7, 4.17), navigation views (2.8, 4.18),
 * attachments (2.12, 4.20), video calls (4.21), and the reminders and saved_snippets endpoints
 * of the reference's OpenAPI: rules, errors, events, garbage input.
 */
import { createLinkVideoCallProvider, doAddLinkifier, doSendMessage, doSubscribe, type User } from '@teamchat/core';
import { afterEach, describe, expect, it } from 'vitest';
import { auditWorld, expect4xx, listen, UNAUTH } from '../helpers/audit.js';
import { must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, multipart } from '../helpers/http.js';

afterEach(closeServers);

const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' };

describe('PATCH /realm/filters/{filter_id} (API.md 4.17)', () => {
  async function setup() {
    const a = await auditWorld();
    const foreign = (must(await doAddLinkifier(a.world.ctx, a.other, { pattern: 'Z(?P<n>[0-9]+)', url_template: 'https://z/{n}' }))).id;
    const id = expectSuccess(await call(a.server, 'POST', '/realm/filters', { auth: a.admin, body: form(ISSUES) })).id as number;
    const patch = (values: Record<string, string>, user: User = a.admin, filterId: number | string = id) =>
      call(a.server, 'PATCH', `/realm/filters/${filterId}`, { auth: user, body: form(values) });
    const list = async () => expectSuccess(await call(a.server, 'GET', '/realm/linkifiers', { auth: a.member })).linkifiers;
    return { ...a, foreign, id, patch, list };
  }

  it('updates every field; reverse_template is checked against example_input; "" resets it to null', async () => {
    const { server, member, id, patch, list } = await setup();
    const capable = await (async () => {
      const { queue_id } = expectSuccess(
        await call(server, 'POST', '/register', { auth: member, body: form({ event_types: '["realm_linkifiers"]', client_capabilities: '{"linkifier_url_template":true}' }) }),
      );
      return queue_id as string;
    })();
    const plain = await listen(server, member, ['realm_linkifiers']);
    expectSuccess(await patch({ pattern: 'GH-(?P<id>[0-9]+)', url_template: 'https://gh.example/{id}', example_input: 'GH-12', reverse_template: 'GH-{id}', alternative_url_templates: '["https://alt.example/{id}"]' }));
    expect(await list()).toEqual([
      { id, pattern: 'GH-(?P<id>[0-9]+)', url_template: 'https://gh.example/{id}', example_input: 'GH-12', reverse_template: 'GH-{id}', alternative_url_templates: ['https://alt.example/{id}'] },
    ]);
    // {{ and }} are literal braces in a reverse template.
    expectSuccess(await patch({ pattern: '\\{(?P<id>[0-9]+)\\}', url_template: 'https://b.example/{id}', example_input: '{12}', reverse_template: '{{{id}}}' }));
    expectSuccess(await patch({ ...ISSUES, example_input: '#3', reverse_template: '' }));
    expect((await list())[0]).toMatchObject({ example_input: '#3', reverse_template: null });
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: capable, last_event_id: '-1', dont_block: 'true' } })).events;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['realm_linkifiers', 'realm_linkifiers', 'realm_linkifiers']);
    expect(events[2].realm_linkifiers).toEqual(await list());
    // Queues without the linkifier_url_template capability get no linkifier events.
    expect(await plain()).toEqual([]);
  });

  it('refuses reverse templates that do not round-trip, bad templates and patterns, with an errors field', async () => {
    const { patch, list } = await setup();
    const before = await list();
    expectError(await patch({ ...ISSUES, reverse_template: '#{id}' }), 400, 'BAD_REQUEST', 'A reverse template requires an example input.', {
      errors: { reverse_template: ['A reverse template requires an example input.'] },
    });
    expectError(await patch({ ...ISSUES, example_input: 'abc' }), 400, 'BAD_REQUEST', 'Example input does not match the linkifier pattern.');
    expectError(await patch({ ...ISSUES, example_input: '#12', reverse_template: 'no {id}' }), 400, 'BAD_REQUEST', "Reverse template gives 'no 12' for the example input, not the example input itself.");
    expectError(await patch({ ...ISSUES, alternative_url_templates: '["https://y/{id"]' }), 400, 'BAD_REQUEST', 'Invalid URL template.', { errors: { alternative_url_templates: ['Invalid URL template.'] } });
    expectError(await patch({ ...ISSUES, url_template: 'https://x/{id' }), 400, 'BAD_REQUEST', 'Invalid URL template.');
    expectError(await patch({ ...ISSUES, url_template: 'https://x/{nope}' }), 400, 'BAD_REQUEST', "Group 'nope' in URL template is not present in linkifier pattern.");
    expectError(await patch({ pattern: '(?P<id>[0-9]+', url_template: 'https://x/{id}' }), 400, 'BAD_REQUEST', /^Bad regular expression/);
    expectError(await patch({ pattern: ISSUES.pattern }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'url_template' argument");
    expectError(await patch({ url_template: ISSUES.url_template }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'pattern' argument");
    expectError(await patch({ ...ISSUES, alternative_url_templates: '"x"' }), 400, 'BAD_REQUEST', 'alternative_url_templates is not a list');
    expectError(await patch({ ...ISSUES, alternative_url_templates: '[1]' }), 400, 'BAD_REQUEST', 'alternative_url_templates[0] is not a string');
    expect(await list()).toEqual(before);
  });

  it('administrators only; unknown and other realms’ linkifiers are "Linkifier not found."', async () => {
    const { server, moderator, member, foreign, id, patch } = await setup();
    for (const user of [moderator, member]) expectError(await patch(ISSUES, user), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'PATCH', `/realm/filters/${id}`, { body: form(ISSUES) }), 401, 'UNAUTHORIZED', UNAUTH);
    expectError(await patch(ISSUES, undefined, foreign), 400, 'BAD_REQUEST', 'Linkifier not found.');
    expectError(await patch(ISSUES, undefined, 999999), 400, 'BAD_REQUEST', 'Linkifier not found.');
    expectError(await patch(ISSUES, undefined, 'abc'), 400, 'BAD_REQUEST', 'filter_id is not an integer');
  });
});

describe('PATCH /navigation_views/{fragment} (API.md 4.18)', () => {
  it('pins, hides and renames custom views with an update event; built-in views take no name; unknown is NOT_FOUND', async () => {
    const { server, owner, member } = await auditWorld();
    const post = (values: Record<string, string>) => call(server, 'POST', '/navigation_views', { auth: member, body: form(values) });
    expectSuccess(await post({ fragment: 'narrow/channel/1-general', is_pinned: 'true', name: 'General' }));
    expectSuccess(await post({ fragment: 'narrow/channel/2-x', is_pinned: 'true', name: 'X' }));
    expectSuccess(await post({ fragment: 'inbox', is_pinned: 'true' }));
    const events = await listen(server, member, ['navigation_view']);
    const patch = (fragment: string, values: Record<string, string>, user: User = member) => call(server, 'PATCH', `/navigation_views/${fragment}`, { auth: user, body: form(values) });
    expect(expectSuccess(await patch('narrow/channel/2-x', { is_pinned: 'false', name: 'Renamed' }))).toEqual({ result: 'success', msg: '' });
    expectSuccess(await patch('inbox', { is_pinned: 'false' }));
    expect(await events()).toEqual([
      { type: 'navigation_view', op: 'update', fragment: 'narrow/channel/2-x', data: { is_pinned: false, name: 'Renamed' } },
      { type: 'navigation_view', op: 'update', fragment: 'inbox', data: { is_pinned: false } },
    ]);
    expectError(await patch('inbox', { name: 'Mine' }), 400, 'BAD_REQUEST', 'Built-in views cannot have a custom name.');
    expectError(await patch('narrow/channel/2-x', { name: 'General' }), 400, 'BAD_REQUEST', 'Navigation view already exists.');
    expectError(await patch('narrow/channel/9-none', { is_pinned: 'true' }), 404, 'NOT_FOUND', 'Navigation view does not exist.');
    expectError(await patch('narrow/channel/2-x', { is_pinned: 'false' }, owner), 404, 'NOT_FOUND', 'Navigation view does not exist.');
    expectError(await patch('narrow/channel/2-x', { is_pinned: 'yes' }), 400, 'BAD_REQUEST', 'is_pinned is not valid JSON');
    expectError(await patch('narrow/channel/2-x', { is_pinned: '1' }), 400, 'BAD_REQUEST', 'is_pinned is not a boolean');
    expectError(await patch('narrow/channel/2-x', { name: '  ' }), 400, 'BAD_REQUEST', 'name cannot be blank');
    expectError(await call(server, 'PATCH', '/navigation_views/inbox', { body: form({ is_pinned: 'true' }) }), 401, 'UNAUTHORIZED', UNAUTH);
    expect(await events()).toEqual([]);
    expect(expectSuccess(await call(server, 'GET', '/navigation_views', { auth: member })).navigation_views).toEqual([
      { fragment: 'narrow/channel/1-general', is_pinned: true, name: 'General' },
      { fragment: 'narrow/channel/2-x', is_pinned: false, name: 'Renamed' },
      { fragment: 'inbox', is_pinned: false, name: null },
    ]);
  });
});

describe('attachments (API.md 2.12, 4.20)', () => {
  it('records have an id, message_ids and create_time in seconds; DELETE sends remove; others’ and unknown IDs are BAD_REQUEST', async () => {
    const { world, server, owner, member } = await auditWorld();
    must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"general"}], principals: [owner.id,member.id] }));
    const events = await listen(server, member, ['attachment']);
    const before = Math.floor(Date.now() / 1000);
    const uploaded = expectSuccess(await call(server, 'POST', '/user_uploads', { auth: member, body: multipart({ file: new File(['hello'], 'notes.txt', { type: 'text/plain' }) }) }));
    const sent = expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'stream', to: 'general', topic: 't', content: `[notes](${uploaded.url})` }) }));
    const { attachments, upload_space_used } = expectSuccess(await call(server, 'GET', '/attachments', { auth: member }));
    expect(attachments).toEqual([{ id: expect.any(Number), name: 'notes.txt', path_id: uploaded.url.replace('/user_uploads/', ''), size: 5, create_time: expect.any(Number), message_ids: [sent.id] }]);
    expect(attachments[0].create_time).toBeGreaterThanOrEqual(before);
    expect(attachments[0].create_time).toBeLessThan(before + 60);
    expect(upload_space_used).toBe(5);
    const id = attachments[0].id as number;
    expectError(await call(server, 'DELETE', `/attachments/${id}`, { auth: owner }), 400, 'BAD_REQUEST', 'Invalid attachment');
    expectError(await call(server, 'DELETE', '/attachments/999999', { auth: member }), 400, 'BAD_REQUEST', 'Invalid attachment');
    expectError(await call(server, 'DELETE', '/attachments/abc', { auth: member }), 400, 'BAD_REQUEST', 'attachment_id is not an integer');
    expectError(await call(server, 'DELETE', `/attachments/${id}`), 401, 'UNAUTHORIZED', UNAUTH);
    expectSuccess(await call(server, 'DELETE', `/attachments/${id}`, { auth: member }));
    expectError(await call(server, 'DELETE', `/attachments/${id}`, { auth: member }), 400, 'BAD_REQUEST', 'Invalid attachment');
    const received = await events();
    expect(received.map((e) => e.op)).toEqual(['add', 'update', 'remove']);
    expect(received[2]).toEqual({ type: 'attachment', op: 'remove', attachment: { id }, upload_space_used: 0 });
    expect(expectSuccess(await call(server, 'GET', '/attachments', { auth: member })).attachments).toEqual([]);
  });
});

describe('POST /calls/videoprovider/create (API.md 4.21)', () => {
  it('answers only url; no provider is BAD_REQUEST; unauthenticated is UNAUTHORIZED', async () => {
    const configured = await auditWorld({ videoCalls: createLinkVideoCallProvider('https://meet.example.com/r') });
    const body = expectSuccess(await call(configured.server, 'POST', '/calls/videoprovider/create', { auth: configured.guest }));
    expect(Object.keys(body).sort()).toEqual(['msg', 'result', 'url']);
    expectError(await call(configured.server, 'POST', '/calls/videoprovider/create'), 401, 'UNAUTHORIZED', UNAUTH);
    const bare = await auditWorld();
    expectError(await call(bare.server, 'POST', '/calls/videoprovider/create', { auth: bare.member }), 400, 'BAD_REQUEST', 'Video call provider credentials have not been configured');
  });
});

describe('reminders and saved snippets (reference OpenAPI)', () => {
  it('reminders: add and remove events to the owner; unknown, others’ and inaccessible IDs refused', async () => {
    const { world, server, owner, member, guest } = await auditWorld();
    must(await doSubscribe(world.ctx, world.as(owner), { subscriptions: [{"name":"general"}], principals: [owner.id,member.id] }));
    const { id: messageId } = must(await doSendMessage(world.ctx, world.as(owner), { type: 'stream', to: 'general', topic: 't', content: 'hi' }));
    const events = await listen(server, member, ['reminders']);
    const ownerEvents = await listen(server, owner, ['reminders']);
    const when = String(Math.floor(Date.now() / 1000) + 600);
    const post = (values: Record<string, string>, user: User = member) => call(server, 'POST', '/reminders', { auth: user, body: form(values) });
    const id = expectSuccess(await post({ message_id: String(messageId), scheduled_delivery_timestamp: when, note: 'n' })).reminder_id;
    const [listed] = expectSuccess(await call(server, 'GET', '/reminders', { auth: member })).reminders;
    expectError(await post({ message_id: String(messageId), scheduled_delivery_timestamp: when }, guest), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await post({ message_id: String(messageId) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'scheduled_delivery_timestamp' argument");
    expectError(await post({ message_id: String(messageId), scheduled_delivery_timestamp: 'soon' }), 400, 'BAD_REQUEST', 'scheduled_delivery_timestamp is not valid JSON');
    expect4xx(await post({ message_id: '[1]', scheduled_delivery_timestamp: when }));
    expectError(await call(server, 'DELETE', `/reminders/${id}`, { auth: owner }), 404, 'BAD_REQUEST', 'Reminder does not exist');
    expectSuccess(await call(server, 'DELETE', `/reminders/${id}`, { auth: member }));
    expect(await events()).toEqual([
      { type: 'reminders', op: 'add', reminders: [listed] },
      { type: 'reminders', op: 'remove', reminder_id: id },
    ]);
    expect(await ownerEvents()).toEqual([]);
  });

  it('saved snippets: add, update and remove events; blank and over-long titles refused; empty PATCH sends nothing', async () => {
    const { server, owner, member } = await auditWorld();
    const events = await listen(server, member, ['saved_snippets']);
    const id = expectSuccess(await call(server, 'POST', '/saved_snippets', { auth: member, body: form({ title: ' T ', content: ' C ' }) })).saved_snippet_id;
    const [snippet] = expectSuccess(await call(server, 'GET', '/saved_snippets', { auth: member })).saved_snippets;
    expect(snippet).toEqual({ id, title: 'T', content: 'C', date_created: expect.any(Number) });
    expectSuccess(await call(server, 'PATCH', `/saved_snippets/${id}`, { auth: member, body: form({}) }));
    expectSuccess(await call(server, 'PATCH', `/saved_snippets/${id}`, { auth: member, body: form({ content: 'D' }) }));
    expectError(await call(server, 'PATCH', `/saved_snippets/${id}`, { auth: member, body: form({ content: ' ' }) }), 400, 'BAD_REQUEST', 'content cannot be blank');
    expectError(await call(server, 'POST', '/saved_snippets', { auth: member, body: form({ title: 'x'.repeat(61), content: 'C' }) }), 400, 'BAD_REQUEST', 'title is too long (limit: 60 characters)');
    expectError(await call(server, 'DELETE', `/saved_snippets/${id}`, { auth: owner }), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
    expectSuccess(await call(server, 'DELETE', `/saved_snippets/${id}`, { auth: member }));
    expect(await events()).toEqual([
      { type: 'saved_snippets', op: 'add', saved_snippet: snippet },
      { type: 'saved_snippets', op: 'update', saved_snippet: { ...snippet, content: 'D' } },
      { type: 'saved_snippets', op: 'remove', saved_snippet_id: id },
    ]);
  });
});
