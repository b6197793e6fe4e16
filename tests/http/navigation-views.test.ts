/** Navigation views over HTTP: fragments with slashes in the path (raw or percent-encoded), statuses, events. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld();
  const member = await world.addUser({ email: 'mel@example.com', fullName: 'Mel Member' });
  const server = await startServer(world);
  return { server, world, member };
}

describe('navigation views over HTTP', () => {
  it('adds, lists, edits and removes views whose fragments contain slashes, and sends the events', async () => {
    const { server, world, member } = await setup();
    const queue = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ event_types: '["navigation_view"]' }) })).queue_id;
    const otherQueue = expectSuccess(await call(server, 'POST', '/register', { auth: world.owner, body: form({}) })).queue_id;

    expect(expectSuccess(await call(server, 'POST', '/navigation_views', { auth: member, body: form({ fragment: 'narrow/is/starred', is_pinned: 'false' }) }))).toEqual({ result: 'success', msg: '' });
    expectSuccess(await call(server, 'POST', '/navigation_views', { auth: member, body: form({ fragment: 'narrow/channel/1-a b', is_pinned: 'true', name: 'A B' }) }));
    expectSuccess(await call(server, 'POST', '/navigation_views', { auth: member, body: form({ fragment: 'inbox', is_pinned: 'true' }) }));
    // Raw slashes, encoded slashes and encoded spaces all name the same view.
    expectSuccess(await call(server, 'PATCH', '/navigation_views/narrow/is/starred', { auth: member, body: form({ is_pinned: 'true' }) }));
    expectSuccess(await call(server, 'PATCH', '/navigation_views/narrow%2Fchannel%2F1-a%20b', { auth: member, body: form({ name: 'Channel A' }) }));
    expectSuccess(await call(server, 'DELETE', '/navigation_views/inbox', { auth: member }));

    expect(expectSuccess(await call(server, 'GET', '/navigation_views', { auth: member })).navigation_views).toEqual([
      { fragment: 'narrow/is/starred', is_pinned: true, name: null },
      { fragment: 'narrow/channel/1-a b', is_pinned: true, name: 'Channel A' },
    ]);
    expect(expectSuccess(await call(server, 'GET', '/navigation_views', { auth: world.owner })).navigation_views).toEqual([]);

    const events = expectSuccess(await call(server, 'GET', '/events', { auth: member, query: { queue_id: queue, dont_block: 'true' } })).events;
    expect(events.map(({ id: _id, ...e }: { id: number }) => e)).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/starred', is_pinned: false, name: null } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/channel/1-a b', is_pinned: true, name: 'A B' } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: true, name: null } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/starred', data: { is_pinned: true } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/channel/1-a b', data: { name: 'Channel A' } },
      { type: 'navigation_view', op: 'remove', fragment: 'inbox' },
    ]);
    const others = expectSuccess(await call(server, 'GET', '/events', { auth: world.owner, query: { queue_id: otherQueue, dont_block: 'true' } })).events;
    expect(others.filter((e: { type: string }) => e.type === 'navigation_view')).toEqual([]);

    const registered = expectSuccess(await call(server, 'POST', '/register', { auth: member, body: form({ fetch_event_types: '["navigation_views"]' }) }));
    expect(registered.navigation_views).toHaveLength(2);
  });

  it('answers each error with its code and status', async () => {
    const { server, member } = await setup();
    expectSuccess(await call(server, 'POST', '/navigation_views', { auth: member, body: form({ fragment: 'narrow/is/mentioned', is_pinned: 'true' }) }));
    const post = (values: Record<string, string>) => call(server, 'POST', '/navigation_views', { auth: member, body: form(values) });
    expectError(await post({ fragment: 'narrow/is/mentioned', is_pinned: 'true', name: 'M' }), 400, 'BAD_REQUEST', 'Built-in views cannot have a custom name.');
    expectError(await post({ fragment: 'narrow/is/dm', is_pinned: 'true' }), 400, 'BAD_REQUEST', 'Custom views must have a valid name.');
    expectError(await post({ fragment: 'narrow/is/mentioned', is_pinned: 'false' }), 400, 'BAD_REQUEST', 'Navigation view already exists.');
    expectError(await post({ fragment: ' ', is_pinned: 'false' }), 400, 'BAD_REQUEST', 'fragment cannot be blank');
    expectError(await post({ fragment: 'inbox', is_pinned: 'maybe' }), 400, 'BAD_REQUEST', 'is_pinned is not valid JSON');
    expectError(await post({ fragment: 'inbox' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'is_pinned' argument", { var_name: 'is_pinned' });
    expectError(await call(server, 'PATCH', '/navigation_views/narrow/is/mentioned', { auth: member, body: form({ name: 'M' }) }), 400, 'BAD_REQUEST', 'Built-in views cannot have a custom name.');
    expectError(await call(server, 'PATCH', '/navigation_views/narrow/is/unknown', { auth: member, body: form({ is_pinned: 'true' }) }), 404, 'NOT_FOUND', 'Navigation view does not exist.');
    expectError(await call(server, 'DELETE', '/navigation_views/narrow%2Fis%2Funknown', { auth: member }), 404, 'NOT_FOUND', 'Navigation view does not exist.');
    const wrongMethod = await call(server, 'GET', '/navigation_views/narrow/is/mentioned', { auth: member });
    expect([wrongMethod.status, wrongMethod.body]).toEqual([405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['DELETE', 'PATCH'] }]);
    expectError(await call(server, 'GET', '/navigation_views'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(await call(server, 'DELETE', '/navigation_views/narrow/is/mentioned'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    // The view survived every failed request.
    expect(expectSuccess(await call(server, 'GET', '/navigation_views', { auth: member })).navigation_views).toEqual([
      { fragment: 'narrow/is/mentioned', is_pinned: true, name: null },
    ]);
  });
});
