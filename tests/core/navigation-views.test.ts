/** GET/POST/PATCH/DELETE /navigation_views, the navigation_view event and the register section. */
import { doAddNavigationView, doEditNavigationView, doRemoveNavigationView, getNavigationViews, type QueuedEvent } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channelWorld, queued, recipientsOf, register, type Snapshot } from './channel-helpers.js';
import { expectBadRequest, expectError, secondRealm } from './fixtures.js';

const views = async (m: Awaited<ReturnType<typeof channelWorld>>, user = m.member) =>
  (must(await getNavigationViews(m.w.ctx, m.w.as(user), {}))).navigation_views;

/** A client's copy of the section kept current by navigation_view events (the reference's apply_event). */
function applyNavigationViewEvents(state: Snapshot, events: readonly QueuedEvent[]): Snapshot {
  const next = structuredClone(state);
  for (const event of events) {
    if (event.type !== 'navigation_view') throw new Error(`unexpected ${event.type}`);
    const list = next.navigation_views as Array<Record<string, unknown>>;
    if (event.op === 'add') list.push(event.navigation_view);
    else if (event.op === 'update') Object.assign(list.find((v) => v.fragment === event.fragment)!, event.data);
    else if (event.op === 'remove') next.navigation_views = list.filter((v) => v.fragment !== event.fragment);
  }
  return next;
}

describe('navigation views', () => {
  it('adds built-in and custom views (stripped), lists them in order, edits and removes them', async () => {
    const m = await channelWorld();
    const { w, member } = m;
    expect(await views(m)).toEqual([]);
    expect(must(await doAddNavigationView(w.ctx, w.as(member), { fragment: ' inbox ', is_pinned: false }))).toEqual({});
    expect(must(await doAddNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/alerted', is_pinned: true, name: '  Alert Words ' }))).toEqual({});
    // In-process callers pass typed values.
    must(await doAddNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/starred', is_pinned: true }));
    expect(await views(m)).toEqual([
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' },
      { fragment: 'narrow/is/starred', is_pinned: true, name: null },
    ]);
    must(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'inbox', is_pinned: true }));
    must(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/alerted', name: ' Watched ', is_pinned: false }));
    // Keeping its own name is no clash.
    must(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/alerted', name: 'Watched' }));
    must(await doRemoveNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/starred' }));
    expect(await views(m)).toEqual([
      { fragment: 'inbox', is_pinned: true, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Watched' },
    ]);
    // Other users' views are their own, and another realm's users never see them.
    expect(await views(m, m.other)).toEqual([]);
    must(await doAddNavigationView(w.ctx, w.as(m.other), { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Watched' }));
    const second = await secondRealm(w.ctx);
    expect(must(await getNavigationViews(w.ctx, { realm: second.realm, user: second.owner }, {}))).toEqual({ navigation_views: [] });
    expectError(await doRemoveNavigationView(w.ctx, { realm: second.realm, user: second.owner }, { fragment: 'inbox' }), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    expect(await views(m)).toHaveLength(2);
  });

  it('refuses names on built-in views, custom views without a name, duplicates and unknown views, sending nothing', async () => {
    const m = await channelWorld();
    const { w, member } = m;
    must(await doAddNavigationView(w.ctx, w.as(member), { fragment: 'recent', is_pinned: true }));
    must(await doAddNavigationView(w.ctx, w.as(member), { fragment: 'narrow/channel/9', is_pinned: true, name: 'Nine' }));
    m.drain();
    const add = (input: Record<string, unknown>) => doAddNavigationView.fromTransport(w.ctx, w.as(member), input);
    const edit = (input: Record<string, unknown>) => doEditNavigationView.fromTransport(w.ctx, w.as(member), input);
    for (const fragment of ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred', 'scheduled', 'reminders']) {
      expectBadRequest(await add({ fragment, is_pinned: 'true', name: 'Mine' }), 'Built-in views cannot have a custom name.');
    }
    expectBadRequest(await edit({ fragment: 'recent', name: 'Mine' }), 'Built-in views cannot have a custom name.');
    expectBadRequest(await add({ fragment: 'narrow/is/dm', is_pinned: 'true' }), 'Custom views must have a valid name.');
    expectBadRequest(await add({ fragment: 'recent', is_pinned: 'false' }), 'Navigation view already exists.');
    expectBadRequest(await add({ fragment: ' narrow/channel/9', is_pinned: 'false', name: 'Other' }), 'Navigation view already exists.');
    expectBadRequest(await add({ fragment: 'narrow/channel/10', is_pinned: 'false', name: 'Nine ' }), 'Navigation view already exists.');
    must(await add({ fragment: 'narrow/channel/10', is_pinned: 'false', name: 'Ten' }));
    m.drain();
    expectBadRequest(await edit({ fragment: 'narrow/channel/10', name: 'Nine' }), 'Navigation view already exists.');
    expectError(await edit({ fragment: 'narrow/is/dm', is_pinned: 'true' }), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    expectError(await edit({ fragment: 'feed', is_pinned: 'true' }), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    expectError(await doRemoveNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/dm' }), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    // Another user's view is unknown to this one.
    must(await doAddNavigationView(w.ctx, w.as(m.other), { fragment: 'narrow/is/followed', is_pinned: true, name: 'Followed' }));
    m.drain();
    expectError(await edit({ fragment: 'narrow/is/followed', is_pinned: 'false' }), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    expectError(await doRemoveNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/followed' }), 'NOT_FOUND', 'Navigation view does not exist.', 404);
    expect(m.drain()).toEqual([]);
    expect(await views(m, m.other)).toEqual([{ fragment: 'narrow/is/followed', is_pinned: true, name: 'Followed' }]);
  });

  it('refuses bad input', async () => {
    const m = await channelWorld();
    const { w, member } = m;
    const add = (input: Record<string, unknown>) => doAddNavigationView.fromTransport(w.ctx, w.as(member), input);
    expectBadRequest(await add({ fragment: '  ', is_pinned: 'true', name: 'x' }), 'fragment cannot be blank');
    expectBadRequest(await add({ fragment: 'narrow/is/dm', is_pinned: 'true', name: ' \n' }), 'name cannot be blank');
    expectBadRequest(await add({ fragment: 'inbox', is_pinned: 'true', name: '' }), 'name cannot be blank');
    expectBadRequest(await add({ fragment: 'inbox', is_pinned: 'yes' }), 'is_pinned is not valid JSON');
    expectBadRequest(await add({ fragment: 'inbox', is_pinned: '1' }), 'is_pinned is not a boolean');
    expectBadRequest(await add({ fragment: 7, is_pinned: true }), 'fragment is not a string');
    expectBadRequest(await add({ fragment: 'narrow/is/dm', is_pinned: true, name: 5 }), 'name is not a string');
    expectError(await add({ is_pinned: 'true' }), 'REQUEST_VARIABLE_MISSING', "Missing 'fragment' argument", 400, { var_name: 'fragment' });
    expectError(await add({ fragment: 'inbox' }), 'REQUEST_VARIABLE_MISSING', "Missing 'is_pinned' argument", 400, { var_name: 'is_pinned' });
    must(await add({ fragment: 'inbox', is_pinned: 'true' }));
    expectBadRequest(await doEditNavigationView.fromTransport(w.ctx, w.as(member), { fragment: 'inbox', is_pinned: null }), 'is_pinned is not a boolean');
    expectBadRequest(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'narrow/x', name: '  ' }), 'name cannot be blank');
    expectError(await getNavigationViews(w.ctx, w.as(null), {}), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    for (const result of [
      await doAddNavigationView(w.ctx, w.as(null), { fragment: 'feed', is_pinned: true }),
      await doEditNavigationView(w.ctx, w.as(null), { fragment: 'inbox', is_pinned: false }),
      await doRemoveNavigationView(w.ctx, w.as(null), { fragment: 'inbox' }),
    ]) {
      expectError(result, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    }
    // A PATCH that changes nothing succeeds and announces nothing.
    m.drain();
    must(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'inbox' }));
    must(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'inbox', is_pinned: true }));
    expect(m.drain()).toEqual([]);
    expect(await views(m)).toEqual([{ fragment: 'inbox', is_pinned: true, name: null }]);
  });

  it('sends navigation_view events to the owner\'s queues only, and snapshot plus events equals a fresh register', async () => {
    const m = await channelWorld();
    const { w, member, other } = m;
    must(await doAddNavigationView(w.ctx, w.as(member), { fragment: 'inbox', is_pinned: true }));
    const params = { event_types: '["navigation_view"]', fetch_event_types: '["navigation_views"]' };
    const before = await register(w, member, params);
    const otherQueue = await register(w, other, {});
    expect(before.navigation_views).toEqual([{ fragment: 'inbox', is_pinned: true, name: null }]);
    m.drain();

    must(await doAddNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' }));
    must(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/alerted', is_pinned: false }));
    must(await doEditNavigationView(w.ctx, w.as(member), { fragment: 'narrow/is/alerted', name: 'Watched', is_pinned: false }));
    must(await doRemoveNavigationView(w.ctx, w.as(member), { fragment: 'inbox' }));
    expect(recipientsOf(m.drain(), 'navigation_view')).toEqual([[member.id], [member.id], [member.id], [member.id]]);

    const events = await queued(w, member, before.queue_id);
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: false } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Watched' } },
      { type: 'navigation_view', op: 'remove', fragment: 'inbox' },
    ]);
    expect(await queued(w, other, otherQueue.queue_id)).toEqual([]);

    const after = await register(w, member, params);
    expect(applyNavigationViewEvents(before, events).navigation_views).toEqual(after.navigation_views);
    expect(after.navigation_views).toEqual([{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Watched' }]);
    expect((await register(w, other, { fetch_event_types: '["navigation_views"]' })).navigation_views).toEqual([]);
  });
});
