/** Linkifiers over HTTP: the five endpoints through the real server, JSON in form values, errors, events, rendering. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld();
  const admin = await world.addUser({ email: 'ada@example.com', fullName: 'Ada Admin', role: 200 });
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const server = await startServer(world);
  return { server, world, admin, member };
}

const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };

describe('linkifiers over HTTP', () => {
  it('adds, lists, updates, reorders and deletes; capable queues get realm_linkifiers; messages are linkified', async () => {
    const { server, world, admin, member } = await setup();
    const queue = expectSuccess(
      await call(server, 'POST', '/register', { auth: member, body: form({ event_types: '["realm_linkifiers"]', client_capabilities: '{"linkifier_url_template":true}' }) }),
    ).queue_id;
    const added = expectSuccess(await call(server, 'POST', '/realm/filters', { auth: admin, body: form({ ...ISSUES, example_input: '#1', reverse_template: '#{id}', alternative_url_templates: '[]' }) }));
    expect(Object.keys(added).sort()).toEqual(['id', 'msg', 'result']);
    const second = expectSuccess(await call(server, 'POST', '/realm/filters', { auth: world.owner, body: form({ pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}' }) })).id;
    expectSuccess(await call(server, 'PATCH', `/realm/filters/${added.id}`, { auth: admin, body: form({ ...ISSUES, reverse_template: '' , example_input: '' }) }));
    expectSuccess(await call(server, 'PATCH', '/realm/linkifiers', { auth: admin, body: form({ ordered_linkifier_ids: JSON.stringify([second, added.id]) }) }));
    const { linkifiers } = expectSuccess(await call(server, 'GET', '/realm/linkifiers', { auth: member }));
    expect(linkifiers).toEqual([
      { id: second, pattern: 'T(?P<n>[0-9]+)', url_template: 'https://t/{n}', example_input: null, reverse_template: null, alternative_url_templates: [] },
      { id: added.id, ...ISSUES, example_input: null, reverse_template: null, alternative_url_templates: [] },
    ]);

    expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: member, body: form({ subscriptions: '[{"name":"dev"}]' }) }));
    const sent = expectSuccess(await call(server, 'POST', '/messages', { auth: member, body: form({ type: 'stream', to: 'dev', topic: 'T4', content: 'see #5' }) }));
    const { message } = expectSuccess(await call(server, 'GET', `/messages/${sent.id}`, { auth: member }));
    expect(message.content).toBe('<p>see <a href="https://github.com/zulip/zulip/issues/5">#5</a></p>');
    expect(message.topic_links).toEqual([{ text: 'T4', url: 'https://t/4' }]);

    expectSuccess(await call(server, 'DELETE', `/realm/filters/${second}`, { auth: admin }));
    const events = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, dont_block: 'true' } })).events;
    expect(events.map((e: { type: string; realm_linkifiers: Array<{ id: number }> }) => [e.type, e.realm_linkifiers.map((l) => l.id)])).toEqual([
      ['realm_linkifiers', [added.id]],
      ['realm_linkifiers', [added.id, second]],
      ['realm_linkifiers', [added.id, second]],
      ['realm_linkifiers', [second, added.id]],
      ['realm_linkifiers', [added.id]],
    ]);
  });

  it('errors with their codes, statuses and the errors field', async () => {
    const { server, admin, member } = await setup();
    const { id } = expectSuccess(await call(server, 'POST', '/realm/filters', { auth: admin, body: form(ISSUES) }));
    expectError(await call(server, 'POST', '/realm/filters', { auth: member, body: form(ISSUES) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'PATCH', `/realm/filters/${id}`, { auth: member, body: form(ISSUES) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'DELETE', `/realm/filters/${id}`, { auth: member }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'PATCH', '/realm/linkifiers', { auth: member, body: form({ ordered_linkifier_ids: `[${id}]` }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(server, 'GET', '/realm/linkifiers', {}), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');

    const bad = await call(server, 'POST', '/realm/filters', { auth: admin, body: form({ pattern: '(?P<id>[0-9]+', url_template: 'https://x/{id}' }) });
    expectError(bad, 400, 'BAD_REQUEST', 'Bad regular expression: missing ): (?P<id>[0-9]+', { errors: { pattern: ['Bad regular expression: missing ): (?P<id>[0-9]+'] } });
    expectError(await call(server, 'POST', '/realm/filters', { auth: admin, body: form(ISSUES) }), 400, 'BAD_REQUEST', 'Realm filter with this Realm and Pattern already exists.', {
      errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
    });
    expectError(await call(server, 'POST', '/realm/filters', { auth: admin, body: form({ pattern: 'x' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'url_template' argument");
    expectError(await call(server, 'POST', '/realm/filters', { auth: admin, body: form({ ...ISSUES, alternative_url_templates: '{' }) }), 400, 'BAD_REQUEST', 'alternative_url_templates is not valid JSON');
    expectError(await call(server, 'PATCH', '/realm/filters/9999', { auth: admin, body: form(ISSUES) }), 400, 'BAD_REQUEST', 'Linkifier not found.');
    expectError(await call(server, 'DELETE', '/realm/filters/9999', { auth: admin }), 400, 'BAD_REQUEST', 'Linkifier not found.');
    expectError(await call(server, 'DELETE', '/realm/filters/abc', { auth: admin }), 400, 'BAD_REQUEST', 'filter_id is not an integer');
    expectError(await call(server, 'PATCH', '/realm/linkifiers', { auth: admin, body: form({ ordered_linkifier_ids: '[]' }) }), 400, 'BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once');
    expectError(await call(server, 'PATCH', '/realm/linkifiers', { auth: admin, body: form({ ordered_linkifier_ids: 'x' }) }), 400, 'BAD_REQUEST', 'ordered_linkifier_ids is not valid JSON');
  });
});
