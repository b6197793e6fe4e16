/**
 * The events of the bot operations, checked as the reference's verify_action does (register,
 * act, apply the queue's events, compare with a fresh register), and who receives each one:
 * realm_bot goes to the bot's owner and the realm's human administrators only.
 */
import { doCreateBot, doDeactivateBot, doReactivateUser, doRegenerateBotApiKey, doUpdateBot } from '@teamchat/core';
import type { LooseQueuedEvent as QueuedEvent } from '../helpers/events.js';
import { describe, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { botWorld, receiversOf, verifyAction } from './bot-helpers.js';
import { ids } from './channel-helpers.js';

async function world() {
  const bw = await botWorld();
  const { w, admin, moderator, member, other, guest } = bw;
  return { ...bw, everyone: [w.owner, admin, moderator, member, other, guest], managersOfMemberBots: ids(w.owner, admin, member) };
}

const ofType = (events: QueuedEvent[] | undefined, type: string) => (events ?? []).filter((e) => e.type === type);

describe('verify_action: bots', () => {
  it('creation: realm_user add to everyone, realm_bot add with services to the owner and administrators', async () => {
    const c = await world();
    let botId = 0;
    const received = await verifyAction(c.w, c.everyone, async () => {
      botId = must(
        await doCreateBot(c.w.ctx, c.w.as(c.member), {
          full_name: 'Echo',
          short_name: 'echo',
          bot_type: 3,
          payload_url: JSON.stringify('http://127.0.0.1:1/x'),
          default_sending_stream: 'general',
        }),
      ).user_id;
    });
    expect(receiversOf(received, 'realm_user', 'add')).toEqual(ids(...c.everyone));
    expect(receiversOf(received, 'realm_bot', 'add')).toEqual(c.managersOfMemberBots);
    expect(ofType(received.get(c.member.id), 'realm_bot')).toEqual([
      {
        type: 'realm_bot',
        op: 'add',
        bot: {
          user_id: botId,
          default_sending_stream: 'general',
          default_events_register_stream: null,
          default_all_public_streams: false,
          services: [{ base_url: 'http://127.0.0.1:1/x', interface: 1, token: expect.any(String) }],
        },
      },
    ]);
  });

  it('default channels, service and config: realm_bot update of the changed field only', async () => {
    const c = await world();
    const bot = await c.createBot(c.member, { short_name: 'out', bot_type: 3, payload_url: JSON.stringify('http://127.0.0.1:1/a') });
    const received = await verifyAction(c.w, c.everyone, async () => {
      must(
        await doUpdateBot(c.w.ctx, c.w.as(c.member), {
          bot_id: bot.id,
          default_sending_stream: 'secret',
          default_events_register_stream: 'general',
          default_all_public_streams: true,
          service_payload_url: JSON.stringify('http://127.0.0.1:1/b'),
          service_interface: 2,
        }),
      );
      must(await doUpdateBot(c.w.ctx, c.w.as(c.admin), { bot_id: bot.id, default_sending_stream: '' }));
    });
    expect(receiversOf(received, 'realm_bot')).toEqual(c.managersOfMemberBots);
    expect(receiversOf(received, 'realm_user')).toEqual([]);
    expect(ofType(received.get(c.admin.id), 'realm_bot').map((e) => e.bot)).toEqual([
      { user_id: bot.id, default_sending_stream: 'secret' },
      { user_id: bot.id, default_events_register_stream: 'general' },
      { user_id: bot.id, default_all_public_streams: true },
      { user_id: bot.id, services: [{ base_url: 'http://127.0.0.1:1/b', interface: 2, token: expect.any(String) }] },
      { user_id: bot.id, default_sending_stream: null },
    ]);
  });

  it('name and role: realm_user updates to everyone, no realm_bot event (FL 474)', async () => {
    const c = await world();
    const bot = await c.createBot(c.member, { short_name: 'named' });
    const received = await verifyAction(c.w, c.everyone, async () => {
      must(await doUpdateBot(c.w.ctx, c.w.as(c.admin), { bot_id: bot.id, full_name: 'Renamed Bot', role: 300, short_name: 'moved' }));
    });
    expect(receiversOf(received, 'realm_bot')).toEqual([]);
    const persons = ofType(received.get(c.other.id), 'realm_user').map((e) => e.person);
    expect(persons).toEqual(
      expect.arrayContaining([
        { user_id: bot.id, full_name: 'Renamed Bot' },
        { user_id: bot.id, role: 300 },
        { user_id: bot.id, new_email: 'moved-bot@chat.example.com' },
      ]),
    );
  });

  it('owner change: the old owner loses the bot, the new owner gains it, everyone learns bot_owner_id', async () => {
    const c = await world();
    const bot = await c.createBot(c.member, { short_name: 'moving' });
    const received = await verifyAction(c.w, c.everyone, async () => {
      must(await doUpdateBot(c.w.ctx, c.w.as(c.member), { bot_id: bot.id, bot_owner_id: c.other.id }));
    });
    expect(ofType(received.get(c.member.id), 'realm_bot')).toEqual([{ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }]);
    expect(ofType(received.get(c.other.id), 'realm_bot')).toEqual([expect.objectContaining({ op: 'add', bot: expect.objectContaining({ user_id: bot.id }) })]);
    // Administrators keep every bot: nothing to add or remove.
    expect(ofType(received.get(c.admin.id), 'realm_bot')).toEqual([]);
    expect(receiversOf(received, 'realm_user', 'update')).toEqual(ids(...c.everyone));
    expect(ofType(received.get(c.guest.id), 'realm_user').map((e) => e.person)).toEqual([{ user_id: bot.id, bot_owner_id: c.other.id }]);
  });

  it('deactivation and reactivation: realm_user is_active to everyone, realm_bot delete/add to managers', async () => {
    const c = await world();
    const bot = await c.createBot(c.member, { short_name: 'gone' });
    const off = await verifyAction(c.w, c.everyone, async () => must(await doDeactivateBot(c.w.ctx, c.w.as(c.member), { bot_id: bot.id })));
    expect(receiversOf(off, 'realm_bot', 'delete')).toEqual(c.managersOfMemberBots);
    expect(receiversOf(off, 'realm_user', 'update')).toEqual(ids(...c.everyone));
    const on = await verifyAction(c.w, c.everyone, async () => must(await doReactivateUser(c.w.ctx, c.w.as(c.admin), { user_id: bot.id })));
    expect(receiversOf(on, 'realm_bot', 'add')).toEqual(c.managersOfMemberBots);
  });

  it('API key regeneration sends nothing (the key left the bot record in FL 474)', async () => {
    const c = await world();
    const bot = await c.createBot(c.member, { short_name: 'keyed' });
    const received = await verifyAction(c.w, c.everyone, async () => must(await doRegenerateBotApiKey(c.w.ctx, c.w.as(c.member), { bot_id: bot.id })));
    for (const events of received.values()) expect(events.filter((e) => e.type !== 'heartbeat')).toEqual([]);
  });

  it('a refused change sends nothing, even after earlier parameters were applied', async () => {
    const c = await world();
    const bot = await c.createBot(c.member, { short_name: 'half' });
    const received = await verifyAction(c.w, c.everyone, async () => {
      const result = await doUpdateBot(c.w.ctx, c.w.as(c.member), { bot_id: bot.id, full_name: 'New Name', default_sending_stream: 'nowhere' });
      expect(result.isErr()).toBe(true);
    });
    for (const events of received.values()) expect(events).toEqual([]);
    const stored = await c.w.ctx.storage.read((tx) => tx.users.byId(c.w.realm.id, bot.id));
    expect(stored?.fullName).toBe('Some Bot');
  });
});
