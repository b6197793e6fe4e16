import { describe, expect, it } from 'vitest';
import { messageMatchesView } from '../../../packages/web/src/narrow/matches';
import { parseSearch, viewToTerms } from '../../../packages/web/src/narrow/terms';
import { BOB, DEE, GENERAL, OWN_ID, RANDOM, channelMessage, directMessage } from './fixtures/register';

describe('search syntax', () => {
  it('parses operators, negation, quotes and free words', () => {
    expect(parseSearch('channel:general -topic:"lunch plans" is:starred hello world')).toEqual([
      { operator: 'channel', operand: 'general' },
      { operator: 'topic', operand: 'lunch plans', negated: true },
      { operator: 'is', operand: 'starred' },
      { operator: 'search', operand: 'hello world' },
    ]);
  });

  it('reads the legacy stream: operator as channel, and a bare colon word as text', () => {
    expect(parseSearch('stream:general 10:30')).toEqual([
      { operator: 'channel', operand: 'general' },
      { operator: 'search', operand: '10:30' },
    ]);
    expect(parseSearch('')).toEqual([]);
  });
});

describe('views as API narrows', () => {
  it('maps each view to its terms', () => {
    expect(viewToTerms({ kind: 'feed' })).toEqual([]);
    expect(viewToTerms({ kind: 'channel', channelId: GENERAL, topic: 'lunch' })).toEqual([
      { operator: 'channel', operand: GENERAL },
      { operator: 'topic', operand: 'lunch' },
    ]);
    expect(viewToTerms({ kind: 'dm', userIds: [BOB] })).toEqual([{ operator: 'dm', operand: [BOB] }]);
    expect(viewToTerms({ kind: 'starred' })).toEqual([{ operator: 'is', operand: 'starred' }]);
    expect(viewToTerms({ kind: 'mentioned' })).toEqual([{ operator: 'is', operand: 'mentioned' }]);
    expect(viewToTerms({ kind: 'all-dms' })).toEqual([{ operator: 'is', operand: 'dm' }]);
  });
});

describe('live messages and the open view', () => {
  const inLunch = channelMessage({ subject: 'Lunch' });
  const inRandom = channelMessage({ stream_id: RANDOM });
  const toBob = directMessage([BOB]);
  const group = directMessage([BOB, DEE]);

  it('matches channels and topics (topics ignoring case)', () => {
    expect(messageMatchesView({ kind: 'channel', channelId: GENERAL }, inLunch, OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'channel', channelId: GENERAL, topic: 'lunch' }, inLunch, OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'channel', channelId: GENERAL, topic: 'dinner' }, inLunch, OWN_ID)).toBe(false);
    expect(messageMatchesView({ kind: 'channel', channelId: GENERAL }, inRandom, OWN_ID)).toBe(false);
    expect(messageMatchesView({ kind: 'channel', channelId: GENERAL }, toBob, OWN_ID)).toBe(false);
  });

  it('matches direct conversations by their exact participants', () => {
    expect(messageMatchesView({ kind: 'dm', userIds: [BOB] }, toBob, OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'dm', userIds: [BOB, OWN_ID] }, toBob, OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'dm', userIds: [BOB] }, group, OWN_ID)).toBe(false);
    expect(messageMatchesView({ kind: 'dm', userIds: [DEE, BOB] }, group, OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'dm', userIds: [OWN_ID] }, directMessage([]), OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'all-dms' }, group, OWN_ID)).toBe(true);
  });

  it('matches flags views by flags, and never guesses at search', () => {
    expect(messageMatchesView({ kind: 'starred' }, channelMessage({ flags: ['starred'] }), OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'starred' }, inLunch, OWN_ID)).toBe(false);
    expect(messageMatchesView({ kind: 'mentioned' }, channelMessage({ flags: ['wildcard_mentioned'] }), OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'feed' }, toBob, OWN_ID)).toBe(true);
    expect(messageMatchesView({ kind: 'search', query: 'hello' }, inLunch, OWN_ID)).toBe(false);
  });
});
