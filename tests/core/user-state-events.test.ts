/**
 * The reference's verify_action idea for the `user_status` and `muted_users` sections: a
 * client that applies the events it receives (as the reference's apply_event does) to the state
 * it fetched before holds what a fresh fetch gives after each action.
 */
import { doMuteUser, doUnmuteUser, doUpdateOwnStatus, doUpdateUserStatus, getEvents, type QueuedEvent } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, register } from './channel-helpers.js';

type Status = Record<string, unknown>;
type State = { user_status: Record<string, Status>; muted_users: unknown[] };

/** The reference's apply_event for these two event types. */
function apply(state: State, events: readonly QueuedEvent[]): State {
  const next: State = structuredClone(state);
  for (const event of events) {
    if (event.type === 'muted_users') next.muted_users = event.muted_users;
    if (event.type !== 'user_status') continue;
    const key = String(event.user_id);
    const status: Status = next.user_status[key] ?? {};
    if (event.away !== undefined) {
      if (event.away) status.away = true;
      else delete status.away;
    }
    if (event.status_text !== undefined) {
      if (event.status_text === '') delete status.status_text;
      else status.status_text = event.status_text;
    }
    if (event.emoji_name !== undefined) {
      for (const field of ['emoji_name', 'emoji_code', 'reaction_type'] as const) {
        if (event.emoji_name === '') delete status[field];
        else status[field] = event[field];
      }
    }
    if (Object.keys(status).length === 0) delete next.user_status[key];
    else next.user_status[key] = status;
  }
  return next;
}

const FETCH = { fetch_event_types: '["user_status", "muted_users"]' };

describe('applying user_status and muted_users events', () => {
  it('keeps a client current through every kind of change', async () => {
    const c = await channelWorld();
    const viewer = c.member;
    const { queue_id: queue, ...first } = await register(c.w, viewer, FETCH);
    let state = first as State;
    let lastEventId = -1;
    /** The events queued since the last poll (the poll acknowledges the earlier ones). */
    const poll = async () => {
      const { events } = must(await getEvents(c.w.ctx, c.w.as(viewer), { queue_id: queue, last_event_id: lastEventId, dont_block: true }));
      lastEventId = events.at(-1)?.id ?? lastEventId;
      return events;
    };
    const steps: Array<(c: ChannelWorld) => Promise<{ isOk(): boolean }>> = [
      (c) => doUpdateOwnStatus(c.w.ctx, c.w.as(c.other), { status_text: 'lunch' }),
      (c) => doUpdateOwnStatus(c.w.ctx, c.w.as(c.other), { emoji_name: 'car' }),
      (c) => doUpdateOwnStatus(c.w.ctx, c.w.as(c.member), { away: true }),
      (c) => doUpdateOwnStatus(c.w.ctx, c.w.as(c.member), { away: false, status_text: 'back' }),
      (c) => doUpdateOwnStatus(c.w.ctx, c.w.as(c.other), { status_text: '' }),
      (c) => doUpdateUserStatus(c.w.ctx, c.w.as(c.admin), { user_id: c.other.id, emoji_name: '' }),
      (c) => doMuteUser(c.w.ctx, c.w.as(c.member), { muted_user_id: c.other.id }),
      (c) => doMuteUser(c.w.ctx, c.w.as(c.member), { muted_user_id: c.admin.id }),
      (c) => doUnmuteUser(c.w.ctx, c.w.as(c.member), { muted_user_id: c.other.id }),
    ];
    for (const step of steps) {
      must(await step(c));
      state = apply(state, await poll());
      const { queue_id: _q, last_event_id: _l, ...fresh } = await register(c.w, viewer, FETCH);
      expect({ user_status: state.user_status, muted_users: state.muted_users }).toEqual({ user_status: fresh.user_status, muted_users: fresh.muted_users });
    }
    expect(state).toMatchObject({ user_status: { [String(c.member.id)]: { status_text: 'back' } }, muted_users: [{ id: c.admin.id }] });
  });
});
