/** PATCH /messages/{id}: has_alert_word is recomputed per recipient after a content edit. */
import { doAddAlertWords, doUpdateMessage, getMessage } from '@teamchat/core';
import { expect, it } from 'vitest';
import { must } from '../helpers/core.js';
import { editWorld } from './message-edit-helpers.js';

it('sets and clears has_alert_word with each recipient’s own words', async () => {
  const e = await editWorld();
  must(await doAddAlertWords(e.w.ctx, e.w.as(e.bob), { alert_words: ["pizza"] }));
  const id = await e.send(e.alice, 'general', 'lunch', 'salad today');
  const flags = async () => ((must(await getMessage(e.w.ctx, e.w.as(e.bob), { message_id: id })) as { message: { flags: string[] } }).message.flags);
  expect(await flags()).toEqual([]);
  must(await doUpdateMessage(e.w.ctx, e.w.as(e.alice), { message_id: id, content: 'pizza today' }));
  expect(await flags()).toEqual(['has_alert_word']);
  must(await doUpdateMessage(e.w.ctx, e.w.as(e.alice), { message_id: id, content: 'soup today' }));
  expect(await flags()).toEqual([]);
});
