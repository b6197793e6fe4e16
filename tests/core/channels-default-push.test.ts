/** default_push_notifications of channels (FL 507): on creation and PATCH /streams/{id}, in records and stream/update. */
import { doUpdateStream } from '@teamchat/core';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { channel, channelWorld, subscribe } from './channel-helpers.js';
import { expectBadRequest } from './fixtures.js';

describe('default_push_notifications', () => {
  it('is set on creation and changed by the channel’s administrators, announced as a stream update', async () => {
    const c = await channelWorld();
    await subscribe(c.w, c.member, ['Alerts'], { default_push_notifications: true });
    await subscribe(c.w, c.member, ['Quiet']);
    const alerts = await channel(c.w, 'Alerts');
    expect([alerts.defaultPushNotifications, (await channel(c.w, 'Quiet')).defaultPushNotifications]).toEqual([true, false]);
    c.drain();
    must(await doUpdateStream(c.w.ctx, c.w.as(c.member), { stream_id: alerts.id, default_push_notifications: false }));
    expect(c.drain().map((p) => p.event)).toEqual([
      { type: 'stream', op: 'update', stream_id: alerts.id, name: 'Alerts', property: 'default_push_notifications', value: false },
    ]);
    expectBadRequest(await doUpdateStream(c.w.ctx, c.w.as(c.other), { stream_id: alerts.id, default_push_notifications: true }), 'You do not have permission to administer this channel.');
    expectBadRequest(await doUpdateStream.fromTransport(c.w.ctx, c.w.as(c.member), { stream_id: String(alerts.id), default_push_notifications: 'yes' }), 'default_push_notifications is not valid JSON');
    expect((await channel(c.w, 'Alerts')).defaultPushNotifications).toBe(false);
    expect(c.drain()).toEqual([]);
  });
});
