import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHashComponent, encodeHashComponent, hashToView, viewToHash } from '../../../packages/web/src/narrow/hash';
import type { View } from '../../../packages/web/src/narrow/view';

describe('hash components', () => {
  it('escapes as the reference does: % as ., and . ( ) escaped', () => {
    expect(encodeHashComponent('lunch plans')).toBe('lunch.20plans');
    expect(encodeHashComponent('v1.2 (beta)')).toBe('v1.2E2.20.28beta.29');
    expect(encodeHashComponent('✔ done')).toBe('.E2.9C.94.20done');
  });

  it('decodes what it encodes, for any text', () => {
    fc.assert(fc.property(fc.string(), (text) => decodeHashComponent(encodeHashComponent(text)) === text));
  });

  it('takes undecodable text as it is', () => {
    expect(decodeHashComponent('.ZZ')).toBe('.ZZ');
  });
});

describe('views ⇄ hashes', () => {
  const names = (id: number) => ({ 10: 'general', 11: 'design team' })[id];

  it.each<[View, string]>([
    [{ kind: 'inbox' }, '#inbox'],
    [{ kind: 'recent' }, '#recent'],
    [{ kind: 'feed' }, '#feed'],
    [{ kind: 'channel', channelId: 10 }, '#narrow/channel/10-general'],
    [{ kind: 'channel', channelId: 11, topic: 'lunch plans' }, '#narrow/channel/11-design-team/topic/lunch.20plans'],
    [{ kind: 'dm', userIds: [3] }, '#narrow/dm/3-dm'],
    [{ kind: 'dm', userIds: [4, 3] }, '#narrow/dm/3,4-group'],
    [{ kind: 'all-dms' }, '#narrow/is/dm'],
    [{ kind: 'starred' }, '#narrow/is/starred'],
    [{ kind: 'mentioned' }, '#narrow/is/mentioned'],
    [{ kind: 'search', query: 'channel:general lunch' }, '#narrow/search/channel.3Ageneral.20lunch'],
    [{ kind: 'settings', section: 'profile' }, '#settings/profile'],
    [{ kind: 'channels' }, '#channels/all'],
  ])('%j is %s and back', (view, hash) => {
    expect(viewToHash(view, names)).toBe(hash);
    const back = hashToView(hash);
    expect(back).toEqual(view.kind === 'dm' ? { ...view, userIds: [...view.userIds].sort((a, b) => a - b) } : view);
  });

  it('reads a channel by its ID whatever its slug says (channels get renamed)', () => {
    expect(hashToView('#narrow/channel/10-old-name/topic/hi')).toEqual({ kind: 'channel', channelId: 10, topic: 'hi' });
    expect(hashToView('#narrow/stream/10-general')).toEqual({ kind: 'channel', channelId: 10 });
    expect(viewToHash({ kind: 'channel', channelId: 12 })).toBe('#narrow/channel/12');
  });

  it('reads the legacy pm-with and is:private forms', () => {
    expect(hashToView('#narrow/pm-with/3,4-group')).toEqual({ kind: 'dm', userIds: [3, 4] });
    expect(hashToView('#narrow/is/private')).toEqual({ kind: 'all-dms' });
    expect(hashToView('#streams/all')).toEqual({ kind: 'channels' });
    expect(hashToView('#channels/subscribed')).toEqual({ kind: 'channels' });
  });

  it('answers undefined for hashes it does not know', () => {
    expect(hashToView('')).toBeUndefined();
    expect(hashToView('#nonsense')).toBeUndefined();
    expect(hashToView('#narrow/channel/not-a-number')).toBeUndefined();
    expect(hashToView('#narrow/frobnicate/1')).toBeUndefined();
  });

  it('round-trips any topic and search text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(), (topic, channelId) => {
        const view: View = { kind: 'channel', channelId, topic };
        expect(hashToView(viewToHash(view, () => 'some channel'))).toEqual(view);
        const search: View = { kind: 'search', query: topic };
        expect(hashToView(viewToHash(search))).toEqual(search);
      }),
    );
  });
});
