/**
 * Audit: GET /messages/{id}/history and the `edit_history` of fetched messages under the realm's
 * message_edit_history_visibility_policy (`all` / `moves` / `none`), as the reference's
 * test_visible_edit_history_for_message walks them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { updateRealmAsOperator } from '@teamchat/core';
import { makeWorld, must } from '../helpers/core.js';
import { call, closeServers, expectError, expectSuccess, form, startServer } from '../helpers/http.js';

afterEach(closeServers);

async function setup() {
  const world = await makeWorld({ config: { timers: false } });
  must(await updateRealmAsOperator(world.ctx, world.realm, { settings: { move_messages_within_stream_limit_seconds: 0 } }));
  const owner = world.owner;
  const bob = await world.addUser({ email: 'bob@example.com', fullName: 'Bob' });
  const eve = await world.addUser({ email: 'eve@example.com', fullName: 'Eve' });
  const server = await startServer(world);
  const channel = async (name: string, extra: Record<string, string> = {}) => {
    const body = form({ subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify([owner.id, bob.id]), ...extra });
    expectSuccess(await call(server, 'POST', '/users/me/subscriptions', { auth: owner, body }));
    return expectSuccess(await call(server, 'GET', '/get_stream_id', { auth: owner, query: { stream: name } })).stream_id as number;
  };
  const setPolicy = async (policy: string) =>
    expectSuccess(await call(server, 'PATCH', '/realm', { auth: owner, body: form({ message_edit_history_visibility_policy: policy }) }));
  return { world, server, owner, bob, eve, channel, setPolicy };
}

/** The reference's sequence: content, topic, channel, topic+content, topic+channel. */
async function editedMessage(env: Awaited<ReturnType<typeof setup>>) {
  const { server, owner, channel } = env;
  const one = await channel('stream 1');
  const two = await channel('stream 2');
  const three = await channel('stream 3');
  const id = expectSuccess(await call(server, 'POST', '/messages', { auth: owner, body: form({ type: 'stream', to: String(one), topic: 'topic 1', content: 'content 1' }) })).id as number;
  const patch = async (values: Record<string, string>) => expectSuccess(await call(server, 'PATCH', `/messages/${id}`, { auth: owner, body: form(values) }));
  await patch({ content: 'content 2' });
  await patch({ topic: 'topic 2' });
  await patch({ stream_id: String(two) });
  await patch({ topic: 'topic 3', content: 'content 3' });
  await patch({ topic: 'topic 4', stream_id: String(three) });
  return { id, one, two, three };
}

describe('GET /messages/{message_id}/history', () => {
  it('answers every snapshot, oldest first, under the default policy "all"', async () => {
    const env = await setup();
    const { id, one, two, three } = await editedMessage(env);
    const body = expectSuccess(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.owner }));
    expect(Object.keys(body).sort()).toEqual(['message_history', 'msg', 'result']);
    const history = body.message_history;
    expect(history).toHaveLength(6);
    expect(history[0]).toEqual({ content: 'content 1', rendered_content: '<p>content 1</p>', topic: 'topic 1', timestamp: expect.any(Number), user_id: env.owner.id });
    expect(history[1]).toMatchObject({ content: 'content 2', prev_content: 'content 1', prev_rendered_content: '<p>content 1</p>', topic: 'topic 1' });
    expect(history[1].content_html_diff).toContain('highlight_text_inserted');
    expect(history[1].content_html_diff).toBe('<div><p>content <span class="highlight_text_inserted">2</span><span class="highlight_text_deleted">1</span></p></div>');
    expect(history[2]).toMatchObject({ content: 'content 2', topic: 'topic 2', prev_topic: 'topic 1' });
    expect(history[2]).not.toHaveProperty('prev_content');
    expect(history[3]).toMatchObject({ topic: 'topic 2', stream: two, prev_stream: one });
    expect(history[4]).toMatchObject({ content: 'content 3', prev_content: 'content 2', topic: 'topic 3', prev_topic: 'topic 2' });
    expect(history[5]).toMatchObject({ content: 'content 3', topic: 'topic 4', prev_topic: 'topic 3', stream: three, prev_stream: two });
    for (const snapshot of history) expect(snapshot.user_id).toBe(env.owner.id);
  });

  it('shows only moves under "moves", and refuses under "none"', async () => {
    const env = await setup();
    const { id, two, three } = await editedMessage(env);
    await env.setPolicy('moves');
    const history = expectSuccess(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.owner })).message_history;
    expect(history).toHaveLength(5);
    for (const snapshot of history) {
      expect(snapshot).not.toHaveProperty('prev_content');
      expect(snapshot).not.toHaveProperty('prev_rendered_content');
      expect(snapshot).not.toHaveProperty('content_html_diff');
    }
    expect(history.map((s: { content: string; topic: string }) => [s.content, s.topic])).toEqual([
      ['content 1', 'topic 1'],
      ['content 2', 'topic 2'],
      ['content 2', 'topic 2'],
      ['content 3', 'topic 3'],
      ['content 3', 'topic 4'],
    ]);
    expect(history[2]).toMatchObject({ stream: two });
    expect(history[4]).toMatchObject({ stream: three, prev_stream: two, prev_topic: 'topic 3' });

    await env.setPolicy('none');
    expectError(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.owner }), 400, 'BAD_REQUEST', 'Message edit history is disabled in this organization');
  });

  it('has one snapshot for an unedited message; empty topics follow allow_empty_topic_name', async () => {
    const env = await setup();
    await env.channel('general');
    const id = expectSuccess(await call(env.server, 'POST', '/messages', { auth: env.bob, body: form({ type: 'stream', to: 'general', topic: '', content: 'x' }) })).id;
    const plain = expectSuccess(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.bob })).message_history;
    expect(plain).toEqual([{ content: 'x', rendered_content: '<p>x</p>', topic: 'general chat', timestamp: expect.any(Number), user_id: env.bob.id }]);
    const empty = expectSuccess(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.bob, query: { allow_empty_topic_name: 'true' } })).message_history;
    expect(empty[0].topic).toBe('');
    expectSuccess(await call(env.server, 'PATCH', `/messages/${id}`, { auth: env.bob, body: form({ topic: 'named' }) }));
    const moved = expectSuccess(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.bob })).message_history;
    expect(moved[1]).toMatchObject({ topic: 'named', prev_topic: 'general chat' });
    const page = expectSuccess(await call(env.server, 'GET', '/messages', { auth: env.bob, query: { message_ids: `[${id}]` } })).messages;
    expect(page[0].edit_history).toEqual([{ user_id: env.bob.id, timestamp: expect.any(Number), prev_topic: 'general chat', topic: 'named' }]);
  });

  it('refuses messages the user cannot read, unknown IDs, bad input and missing auth', async () => {
    const env = await setup();
    const secret = await env.channel('secret', { invite_only: 'true' });
    const id = expectSuccess(await call(env.server, 'POST', '/messages', { auth: env.owner, body: form({ type: 'stream', to: String(secret), topic: 't', content: 'x' }) })).id;
    const dm = expectSuccess(await call(env.server, 'POST', '/messages', { auth: env.owner, body: form({ type: 'direct', to: `[${env.bob.id}]`, content: 'psst' }) })).id;
    expectSuccess(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.bob }));
    expectSuccess(await call(env.server, 'GET', `/messages/${dm}/history`, { auth: env.bob }));
    expectError(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.eve }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(env.server, 'GET', `/messages/${dm}/history`, { auth: env.eve }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(env.server, 'GET', '/messages/99999/history', { auth: env.bob }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(await call(env.server, 'GET', `/messages/${id}/history`, { auth: env.bob, query: { allow_empty_topic_name: 'yes' } }), 400, 'BAD_REQUEST', 'allow_empty_topic_name is not valid JSON');
    expectError(await call(env.server, 'GET', `/messages/${id}/history`), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    const other = await makeWorld();
    const stranger = other.owner;
    expectError(await call(env.server, 'GET', `/messages/${id}/history`, { auth: stranger }), 401, 'UNAUTHORIZED', /./);
  });
});

describe('edit_history in fetched messages', () => {
  it('follows the policy: all entries, moves only, or left out', async () => {
    const env = await setup();
    const { id, one, two, three } = await editedMessage(env);
    const fetch = async () => expectSuccess(await call(env.server, 'GET', `/messages/${id}`, { auth: env.owner })).message;
    const all = await fetch();
    expect(all.edit_history).toHaveLength(5);
    expect(all.edit_history[4]).toEqual({ user_id: env.owner.id, timestamp: expect.any(Number), prev_content: 'content 1', prev_rendered_content: '<p>content 1</p>' });
    expect(all.edit_history[0]).toMatchObject({ prev_topic: 'topic 3', topic: 'topic 4', prev_stream: two, stream: three });
    expect(all.last_edit_timestamp).toBeTypeOf('number');
    expect(all.last_moved_timestamp).toBeTypeOf('number');

    await env.setPolicy('moves');
    const moves = await fetch();
    expect(moves.edit_history).toHaveLength(4);
    for (const entry of moves.edit_history) {
      expect(entry).not.toHaveProperty('prev_content');
      expect(entry).not.toHaveProperty('prev_rendered_content');
    }
    expect(moves.edit_history[1]).toEqual({ user_id: env.owner.id, timestamp: expect.any(Number), prev_topic: 'topic 2', topic: 'topic 3' });
    expect(moves.edit_history[2]).toMatchObject({ prev_stream: one, stream: two });

    await env.setPolicy('none');
    const none = await fetch();
    expect(none).not.toHaveProperty('edit_history');
    // The timestamps still tell clients the message was edited and moved.
    expect(none.last_edit_timestamp).toBe(all.last_edit_timestamp);
    expect(none.last_moved_timestamp).toBe(all.last_moved_timestamp);
    const page = expectSuccess(await call(env.server, 'GET', '/messages', { auth: env.owner, query: { message_ids: `[${id}]` } })).messages;
    expect(page[0]).not.toHaveProperty('edit_history');
  });
});
