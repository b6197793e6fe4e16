/**
 * Audit of API.md 2.9–2.11, 3, 4.1, 4.9, 4.13, 4.15, 4.16: each change's response, its events
 * and who receives them (nobody outside a private channel or DM), and garbage input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, closeServers, expectError, expectSuccess, form } from '../helpers/http.js';
import { auditRealm } from './audit-helpers.js';

afterEach(closeServers);

describe('subscriptions (2.9) and their events', () => {
  it('add sends full subscription objects to the subscribed user, peer_add to others who may see', async () => {
    const r = await auditRealm();
    const eveQ = await r.queue(r.eve, ['subscription']);
    const bobQ = await r.queue(r.bob, ['subscription']);
    const guestQ = await r.queue(r.guest, ['subscription']);
    const body = form({ subscriptions: JSON.stringify([{ name: 'secret' }]), principals: JSON.stringify([r.eve.id]) });
    expectSuccess(await call(r.server, 'POST', '/users/me/subscriptions', { auth: r.owner, body }));
    const [added] = await eveQ.events();
    expect(added).toMatchObject({ type: 'subscription', op: 'add' });
    const sub = added.subscriptions[0];
    for (const field of [
      'stream_id', 'name', 'description', 'rendered_description', 'date_created', 'creator_id', 'invite_only', 'desktop_notifications',
      'email_notifications', 'wildcard_mentions_notify', 'push_notifications', 'audible_notifications', 'pin_to_top', 'is_muted',
      'in_home_view', 'is_announcement_only', 'is_web_public', 'color', 'stream_post_policy',
    ]) expect(sub, field).toHaveProperty(field);
    expect(sub).toMatchObject({ stream_id: r.secret, name: 'secret', invite_only: true, is_muted: false, in_home_view: true, stream_post_policy: 1, is_announcement_only: false });
    // Without the notification_settings_null capability the user's default shows, not null.
    expect(sub.desktop_notifications).toBe(false);
    expect(sub.creator_id).toBe(r.owner.id);
    expect(sub).not.toHaveProperty('email_address');
    expect(sub).not.toHaveProperty('role');
    expect(sub.subscribers).toEqual(expect.arrayContaining([r.owner.id, r.bob.id, r.eve.id]));
    expect(await bobQ.events()).toEqual([{ id: expect.any(Number), type: 'subscription', op: 'peer_add', stream_ids: [r.secret], user_ids: [r.eve.id] }]);
    // The guest is not in the private channel: nothing of it.
    expect(await guestQ.events()).toEqual([]);
  });

  it('update and remove events go to the subscriber; peer_remove to other subscribers only for private channels', async () => {
    const r = await auditRealm();
    const bobQ = await r.queue(r.bob, ['subscription']);
    const eveQ = await r.queue(r.eve, ['subscription']);
    const props = form({ subscription_data: JSON.stringify([{ stream_id: r.secret, property: 'pin_to_top', value: true }, { stream_id: r.secret, property: 'in_home_view', value: false }]) });
    expectSuccess(await call(r.server, 'POST', '/users/me/subscriptions/properties', { auth: r.bob, body: props }));
    const updates = await bobQ.events();
    expect(updates[0]).toEqual({ id: expect.any(Number), type: 'subscription', op: 'update', stream_id: r.secret, property: 'pin_to_top', value: true });
    expect(updates.some((e) => e.property === 'in_home_view' || e.property === 'is_muted')).toBe(true);
    expect(await eveQ.events()).toEqual([]);
    const ownerQ = await r.queue(r.owner, ['subscription']);
    const removed = expectSuccess(await call(r.server, 'DELETE', '/users/me/subscriptions', { auth: r.bob, body: form({ subscriptions: '["secret"]' }) }));
    expect(removed).toMatchObject({ removed: ['secret'], not_removed: [] });
    expect(await bobQ.events()).toEqual([{ id: expect.any(Number), type: 'subscription', op: 'remove', subscriptions: [{ stream_id: r.secret, name: 'secret' }] }]);
    expect(await ownerQ.events()).toEqual([{ id: expect.any(Number), type: 'subscription', op: 'peer_remove', stream_ids: [r.secret], user_ids: [r.bob.id] }]);
    expect(await eveQ.events()).toEqual([]);
  });

  it('garbage: bad JSON, wrong types, unknown channels, missing auth', async () => {
    const r = await auditRealm();
    const post = (values: Record<string, string>, auth: typeof r.owner | null = r.bob) =>
      call(r.server, 'POST', '/users/me/subscriptions', { ...(auth ? { auth } : {}), body: form(values) });
    expectError(await post({ subscriptions: '[{' }), 400, 'BAD_REQUEST', 'subscriptions is not valid JSON');
    expectError(await post({ subscriptions: '{}' }), 400, 'BAD_REQUEST', /subscriptions/);
    expectError(await post({}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument");
    expectError(await post({ subscriptions: '[{"name":"general"}]' }, null), 401, 'UNAUTHORIZED', /Not logged in/);
    const props = (data: string) => call(r.server, 'POST', '/users/me/subscriptions/properties', { auth: r.eve, body: form({ subscription_data: data }) });
    expectError(await props(JSON.stringify([{ stream_id: r.secret, property: 'pin_to_top', value: true }])), 400, 'BAD_REQUEST', /./);
    expectError(await props(JSON.stringify([{ stream_id: 9999, property: 'pin_to_top', value: true }])), 400, 'BAD_REQUEST', /./);
    expectError(await props(JSON.stringify([{ stream_id: r.general, property: 'bogus', value: true }])), 400, 'BAD_REQUEST', /./);
    expectError(await props('nope'), 400, 'BAD_REQUEST', 'subscription_data is not valid JSON');
    const del = await call(r.server, 'DELETE', '/users/me/subscriptions', { auth: r.bob, body: form({ subscriptions: '["nonexistent"]' }) });
    expectError(del, 400, 'STREAM_DOES_NOT_EXIST', "Channel 'nonexistent' does not exist", { stream: 'nonexistent' });
  });
});

describe('message flags (2.10, 4.16)', () => {
  it('remove read sends message_details; only the actor’s queues; not-subscribed channels are reported', async () => {
    const r = await auditRealm();
    const id = await r.send(r.owner, 'general', 'lunch', '@**Bob** hi');
    const dm = await r.sendDm(r.owner, [r.bob.id]);
    const bobQ = await r.queue(r.bob, ['update_message_flags']);
    const ownerQ = await r.queue(r.owner, ['update_message_flags']);
    const post = (values: Record<string, string>, user = r.bob) => call(r.server, 'POST', '/messages/flags', { auth: user, body: form(values) });
    expectSuccess(await post({ messages: `[${id},${dm}]`, op: 'add', flag: 'read' }));
    expect(await bobQ.events()).toEqual([{ id: expect.any(Number), type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [id, dm], all: false }]);
    expectSuccess(await post({ messages: `[${id},${dm}]`, op: 'remove', flag: 'read' }));
    const [removed] = await bobQ.events();
    expect(removed).toMatchObject({ op: 'remove', operation: 'remove', flag: 'read', messages: [id, dm], all: false });
    expect(removed.message_details).toEqual({
      [id]: { type: 'stream', stream_id: r.general, topic: 'lunch', mentioned: true, unmuted_stream_msg: true },
      [dm]: { type: 'private', user_ids: [r.owner.id] },
    });
    expect(await ownerQ.events()).toEqual([]);

    // Eve reads general's shared history without a subscription: starring is allowed (historical).
    const starred = expectSuccess(await post({ messages: `[${id}]`, op: 'add', flag: 'starred' }, r.eve));
    expect(starred.messages).toEqual([id]);
    const fetched = expectSuccess(await call(r.server, 'GET', `/messages/${id}`, { auth: r.eve })).message;
    expect(fetched.flags).toEqual(expect.arrayContaining(['starred', 'historical', 'read']));
    const unread = expectSuccess(await post({ messages: `[${id}]`, op: 'remove', flag: 'read' }, r.eve));
    expect(unread).toEqual({ result: 'success', msg: '', messages: [], ignored_because_not_subscribed_channels: [r.general] });
  });

  it('every non-settable flag is refused; garbage input', async () => {
    const r = await auditRealm();
    const id = await r.send(r.owner, 'general', 'lunch');
    const post = (values: Record<string, string>) => call(r.server, 'POST', '/messages/flags', { auth: r.bob, body: form(values) });
    for (const flag of ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'has_alert_word', 'historical', 'wildcard_mentioned']) {
      expectError(await post({ messages: `[${id}]`, op: 'add', flag }), 400, 'BAD_REQUEST', `Flag not editable: '${flag}'`);
    }
    for (const flag of ['read', 'starred', 'collapsed', 'hide_link_previews']) expectSuccess(await post({ messages: `[${id}]`, op: 'add', flag }));
    expectError(await post({ messages: `${id}`, op: 'add', flag: 'read' }), 400, 'BAD_REQUEST', 'messages is not a list');
    expectError(await post({ messages: `[${id}]`, flag: 'read' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument");
    expectError(await post({ messages: `[${id}]`, op: 'add' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'flag' argument");
    const secretMsg = await r.send(r.owner, 'secret', 'x');
    const before = expectSuccess(await call(r.server, 'GET', `/messages/${id}`, { auth: r.bob })).message.flags;
    // A list with one unreadable message changes nothing.
    expectError(await post({ messages: `[${id},${secretMsg + 1000}]`, op: 'remove', flag: 'starred' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expect(expectSuccess(await call(r.server, 'GET', `/messages/${id}`, { auth: r.bob })).message.flags).toEqual(before);
  });
});

describe('reactions (2.11, 4.15)', () => {
  it('events reach those who received the message, never outsiders of a private channel or DM', async () => {
    const r = await auditRealm();
    const secretMsg = await r.send(r.owner, 'secret', 'plans');
    const dm = await r.sendDm(r.owner, [r.bob.id]);
    const eveQ = await r.queue(r.eve, ['reaction']);
    const ownerQ = await r.queue(r.owner, ['reaction']);
    const guestQ = await r.queue(r.guest, ['reaction']);
    for (const id of [secretMsg, dm]) {
      expectSuccess(await call(r.server, 'POST', `/messages/${id}/reactions`, { auth: r.bob, body: form({ emoji_name: 'octopus' }) }));
      expectSuccess(await call(r.server, 'DELETE', `/messages/${id}/reactions`, { auth: r.bob, body: form({ emoji_name: 'octopus' }) }));
    }
    const events = await ownerQ.events();
    expect(events).toHaveLength(4);
    expect(events[0]).toEqual({ id: expect.any(Number), type: 'reaction', op: 'add', message_id: secretMsg, user_id: r.bob.id, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    expect(events[1]).toMatchObject({ op: 'remove', message_id: secretMsg });
    expect(events[0]).not.toHaveProperty('user');
    expect(await eveQ.events()).toEqual([]);
    expect(await guestQ.events()).toEqual([]);
  });

  it('a public channel message: non-subscribers may react; subscribers get the event', async () => {
    const r = await auditRealm();
    const id = await r.send(r.owner, 'general', 'lunch');
    const bobQ = await r.queue(r.bob, ['reaction']);
    expectSuccess(await call(r.server, 'POST', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_name: 'tada' }) }));
    expect(await bobQ.events()).toHaveLength(1);
    // The guest cannot read the public channel's history.
    expectError(await call(r.server, 'POST', `/messages/${id}/reactions`, { auth: r.guest, body: form({ emoji_name: 'tada' }) }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    // DELETE: reaction_type defaults to unicode_emoji; code derived from the name.
    expectSuccess(await call(r.server, 'DELETE', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_code: '1f389' }) }));
    expectError(await call(r.server, 'DELETE', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_name: 'tada' }) }), 400, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    expectError(
      await call(r.server, 'POST', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_name: 'tada', emoji_code: '1f600' }) }),
      400,
      'BAD_REQUEST',
      'Invalid emoji name.',
    );
    expectError(
      await call(r.server, 'POST', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_name: 'tada', reaction_type: 'bogus' }) }),
      400,
      'BAD_REQUEST',
      'Invalid emoji type.',
    );
    expectError(
      // Removal does not check the type (the reference): no such reaction.
      await call(r.server, 'DELETE', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_name: 'tada', reaction_type: 'bogus' }) }),
      400,
      'REACTION_DOES_NOT_EXIST',
      "Reaction doesn't exist.",
    );
    // service_extra_emoji
    expectSuccess(await call(r.server, 'POST', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_name: 'zulip' }) }));
    const message = expectSuccess(await call(r.server, 'GET', `/messages/${id}`, { auth: r.eve })).message;
    expect(message.reactions).toEqual([{ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji', user_id: r.eve.id }]);
    expectSuccess(await call(r.server, 'DELETE', `/messages/${id}/reactions`, { auth: r.eve, body: form({ emoji_name: 'zulip', reaction_type: 'service_extra_emoji' }) }));
  });
});

describe('typing (3, 4.1)', () => {
  it('direct typing reaches the recipients and the sender; channel typing only capable subscribers', async () => {
    const r = await auditRealm();
    const bobQ = await r.queue(r.bob, ['typing'], { stream_typing_notifications: true });
    const eveQ = await r.queue(r.eve, ['typing'], { stream_typing_notifications: true });
    const ownerQ = await r.queue(r.owner, ['typing'], { stream_typing_notifications: true });
    const guestQ = await r.queue(r.guest, ['typing'], { stream_typing_notifications: true });
    expectSuccess(await call(r.server, 'POST', '/typing', { auth: r.owner, body: form({ op: 'start', to: `[${r.bob.id}]` }) }));
    const start = {
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: r.owner.id, email: r.owner.deliveryEmail },
      recipients: [
        { user_id: r.owner.id, email: r.owner.deliveryEmail },
        { user_id: r.bob.id, email: 'bob@example.com' },
      ],
    };
    expect(await bobQ.events()).toEqual([{ id: expect.any(Number), ...start }]);
    expect(await ownerQ.events()).toEqual([{ id: expect.any(Number), ...start }]);
    expect(await eveQ.events()).toEqual([]);
    expectSuccess(await call(r.server, 'POST', '/typing', { auth: r.owner, body: form({ type: 'channel', op: 'stop', stream_id: String(r.secret), topic: '(no topic)' }) }));
    expect(await bobQ.events()).toEqual([
      { id: expect.any(Number), type: 'typing', op: 'stop', message_type: 'stream', sender: { user_id: r.owner.id, email: r.owner.deliveryEmail }, stream_id: r.secret, topic: 'general chat' },
    ]);
    expect(await eveQ.events()).toEqual([]);
    expect(await guestQ.events()).toEqual([]);
    // `to` is ignored for channels; stream_id and topic for direct.
    expectSuccess(await call(r.server, 'POST', '/typing', { auth: r.owner, body: form({ type: 'stream', op: 'start', stream_id: String(r.general), topic: 't', to: '[999]' }) }));
    expectSuccess(await call(r.server, 'POST', '/typing', { auth: r.owner, body: form({ op: 'start', to: `[${r.bob.id}]`, stream_id: '999', topic: 't' }) }));
  });

  it('garbage and access', async () => {
    const r = await auditRealm();
    const post = (values: Record<string, string>, user = r.eve) => call(r.server, 'POST', '/typing', { auth: user, body: form(values) });
    expectError(await post({ type: 'stream', op: 'start', stream_id: String(r.secret), topic: 't' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await post({ type: 'stream', op: 'start', stream_id: '9999', topic: 't' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await post({ type: 'stream', op: 'start', stream_id: '"x"', topic: 't' }), 400, 'BAD_REQUEST', 'stream_id is not an integer');
    expectError(await post({ op: 'start', to: '[9999]' }), 400, 'BAD_REQUEST', 'Invalid user ID 9999');
    expectError(await post({ op: 'start', to: '[]' }), 400, 'BAD_REQUEST', "Empty 'to' list");
    expectError(await post({ op: 'start' }), 400, 'BAD_REQUEST', "Missing 'to' argument");
    expectError(await post({ op: 'begin', to: `[${r.bob.id}]` }), 400, 'BAD_REQUEST', 'Invalid op');
    expectError(await post({ to: `[${r.bob.id}]` }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument");
    expectError(await post({ op: 'start', to: '["bob@example.com"]' }), 400, 'BAD_REQUEST', 'to[0] is not an integer');
  });
});

describe('delete_topic (3, 4.9)', () => {
  it('deletes every message of the topic, sends delete_message to those with access only', async () => {
    const r = await auditRealm();
    const ids = [await r.send(r.owner, 'secret', 'doomed'), await r.send(r.bob, 'secret', 'doomed')];
    const keep = await r.send(r.owner, 'secret', 'kept');
    const bobQ = await r.queue(r.bob, ['delete_message'], { bulk_message_deletion: true });
    const eveQ = await r.queue(r.eve, ['delete_message'], { bulk_message_deletion: true });
    const guestQ = await r.queue(r.guest, ['delete_message'], { bulk_message_deletion: true });
    expectError(await call(r.server, 'POST', `/streams/${r.secret}/delete_topic`, { auth: r.bob, body: form({ topic_name: 'doomed' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    const body = expectSuccess(await call(r.server, 'POST', `/streams/${r.secret}/delete_topic`, { auth: r.owner, body: form({ topic_name: 'doomed' }) }));
    expect(body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await bobQ.events()).toEqual([{ id: expect.any(Number), type: 'delete_message', message_type: 'stream', stream_id: r.secret, topic: 'doomed', message_ids: ids }]);
    expect(await eveQ.events()).toEqual([]);
    expect(await guestQ.events()).toEqual([]);
    expectSuccess(await call(r.server, 'GET', `/messages/${keep}`, { auth: r.bob }));
    expectError(await call(r.server, 'GET', `/messages/${ids[0]}`, { auth: r.bob }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    // An empty (or unknown) topic is still a success.
    expect(expectSuccess(await call(r.server, 'POST', `/streams/${r.secret}/delete_topic`, { auth: r.owner, body: form({ topic_name: 'nothing here' }) })).complete).toBe(true);
  });

  it('realm_empty_topic_display_name means the empty topic; a moderator is not an administrator', async () => {
    const r = await auditRealm();
    const id = await r.send(r.owner, 'general', '');
    const other = await r.send(r.owner, 'general', 'other');
    expectSuccess(await call(r.server, 'POST', `/streams/${r.general}/delete_topic`, { auth: r.owner, body: form({ topic_name: 'general chat' }) }));
    expectError(await call(r.server, 'GET', `/messages/${id}`, { auth: r.owner }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectSuccess(await call(r.server, 'GET', `/messages/${other}`, { auth: r.owner }));
    const moderator = await r.world.addUser({ email: 'mod@example.com', role: 300 });
    expectError(await call(r.server, 'POST', `/streams/${r.general}/delete_topic`, { auth: moderator, body: form({ topic_name: 'other' }) }), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await call(r.server, 'POST', `/streams/${r.general}/delete_topic`, { body: form({ topic_name: 'other' }) }), 401, 'UNAUTHORIZED', /Not logged in/);
    expectError(await call(r.server, 'POST', '/streams/abc/delete_topic', { auth: r.owner, body: form({ topic_name: 'other' }) }), 400, 'BAD_REQUEST', /stream_id/);
  });
});

describe('mark-read endpoints (4.13)', () => {
  it('mark_topic_as_read marks the topic’s unread messages and sends update_message_flags', async () => {
    const r = await auditRealm();
    const a = await r.send(r.owner, 'general', '');
    const b = await r.send(r.owner, 'general', 'other');
    const bobQ = await r.queue(r.bob, ['update_message_flags']);
    expectSuccess(await call(r.server, 'POST', '/mark_topic_as_read', { auth: r.bob, body: form({ stream_id: String(r.general), topic_name: 'general chat' }) }));
    expect(await bobQ.events()).toEqual([{ id: expect.any(Number), type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [a], all: false }]);
    expect(expectSuccess(await call(r.server, 'GET', `/messages/${b}`, { auth: r.bob })).message.flags).not.toContain('read');
    expectSuccess(await call(r.server, 'POST', '/mark_stream_as_read', { auth: r.bob, body: form({ stream_id: String(r.general) }) }));
    expect((await bobQ.events())[0]).toMatchObject({ flag: 'read', messages: [b] });
    expectError(await call(r.server, 'POST', '/mark_topic_as_read', { auth: r.eve, body: form({ stream_id: String(r.secret), topic_name: 'x' }) }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await call(r.server, 'POST', '/mark_topic_as_read', { auth: r.bob, body: form({ stream_id: '9999', topic_name: 'x' }) }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await call(r.server, 'POST', '/mark_topic_as_read', { auth: r.bob, body: form({ stream_id: String(r.general) }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument");
    expectError(await call(r.server, 'POST', '/mark_topic_as_read', { auth: r.bob, body: form({ topic_name: 'x' }) }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument");
    expectError(await call(r.server, 'POST', '/mark_topic_as_read', { auth: r.bob, body: form({ stream_id: 'x', topic_name: 'x' }) }), 400, 'BAD_REQUEST', /stream_id/);
    expectError(await call(r.server, 'POST', '/mark_stream_as_read', { auth: r.bob, body: form({ stream_id: '9999' }) }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectSuccess(await call(r.server, 'POST', '/mark_all_as_read', { auth: r.bob }));
  });
});
