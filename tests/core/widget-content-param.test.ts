/** POST /messages' widget_content: a program's zform widget, checked as the reference's check_widget_content. */
import { doSendMessage } from '@teamchat/core';
import { beforeEach, expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { type ChannelWorld, channelWorld, subscribe } from './channel-helpers.js';
import { failure, submessagesOf } from './submessage-helpers.js';

let c: ChannelWorld;
beforeEach(async () => {
  c = await channelWorld();
  await subscribe(c.w, c.w.owner, ['general'], { principals: [c.w.owner.id, c.member.id, c.bot.id] });
});

const ZFORM = { type: 'choices', heading: 'Pick one', choices: [{ short_name: 'A', long_name: 'Apple', reply: 'order apple' }] };
const sendWith = (widgetContent: string, content = 'choose') =>
  doSendMessage(c.w.ctx, c.w.as(c.bot), { type: 'stream', to: 'general', topic: 'menu', content, widget_content: widgetContent });

it('a zform becomes the message’s first submessage, and wins over a widget the content asks for', async () => {
  const { id } = must(await sendWith(JSON.stringify({ widget_type: 'zform', extra_data: ZFORM }), '/poll ignored?'));
  const [widget, ...rest] = await submessagesOf(c.w, c.member, id);
  expect(rest).toEqual([]);
  expect(widget).toMatchObject({ message_id: id, sender_id: c.bot.id, msg_type: 'widget' });
  expect(JSON.parse(widget!.content)).toEqual({ widget_type: 'zform', extra_data: ZFORM });
});

it('refuses anything else with the reference’s texts, before anything is stored', async () => {
  const zform = (extra: unknown) => JSON.stringify({ widget_type: 'zform', extra_data: extra });
  const cases: Array<[string, string]> = [
    ['{{{', 'Widgets: API programmer sent invalid JSON content'],
    ['[1]', 'Widgets: widget_content is not a dict'],
    ['{"extra_data": {}}', 'Widgets: widget_type is not in widget_content'],
    ['{"widget_type": "zform"}', 'Widgets: extra_data is not in widget_content'],
    ['{"widget_type": "zform", "extra_data": 3}', 'Widgets: extra_data is not a dict'],
    ['{"widget_type": "poll", "extra_data": {}}', 'Widgets: unknown widget type: poll'],
    [zform({ heading: 'x' }), 'Widgets: zform is missing type field'],
    [zform({ type: 'radio' }), 'Widgets: unknown zform type: radio'],
    [zform({ type: 'choices', choices: [] }), 'Widgets: heading key is missing from extra_data'],
    [zform({ type: 'choices', heading: 1, choices: [] }), 'Widgets: extra_data["heading"] is not a string'],
    [zform({ type: 'choices', heading: 'h' }), 'Widgets: choices key is missing from extra_data'],
    [zform({ type: 'choices', heading: 'h', choices: {} }), 'Widgets: extra_data["choices"] is not a list'],
    [zform({ type: 'choices', heading: 'h', choices: ['A'] }), 'Widgets: extra_data["choices"][0] is not a dict'],
    [zform({ type: 'choices', heading: 'h', choices: [{ long_name: 'a', reply: 'b' }] }), 'Widgets: short_name key is missing from extra_data["choices"][0]'],
    [zform({ type: 'choices', heading: 'h', choices: [{ short_name: 'a', long_name: 'b', reply: 7 }] }), 'Widgets: extra_data["choices"][0]["reply"] is not a string'],
  ];
  for (const [text, message] of cases) expect(failure(await sendWith(text))).toBe(message);
  expect(failure(await sendWith(`"${'x'.repeat(10_001)}"`))).toBe('widget_content is too long (limit: 10000 characters)');
  // No refused send left a message behind.
  const general = (await c.w.ctx.storage.read((tx) => tx.streams.byName(c.w.realm.id, 'general')))!;
  expect(await c.w.ctx.storage.read((tx) => tx.messages.topicHasMessage(c.w.realm.id, general.id, 'menu'))).toBe(false);
});
