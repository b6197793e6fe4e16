import { describe, expect, it } from 'vitest';
import { applyChoice, findTrigger, markupFor, rankByName } from '../../../packages/web/src/lib/autocomplete';
import { draftFields, draftMatches, retarget, sendParams, targetForView, targetReady } from '../../../packages/web/src/lib/compose-target';
import { glyphOf, realmChoices, searchEmoji, unicodeChoices } from '../../../packages/web/src/lib/emoji';
import { uploadMarkdown } from '../../../packages/web/src/lib/upload';
import { BOB, DEE, GENERAL, OWN_ID, RANDOM } from './fixtures/register';

describe('autocomplete triggers', () => {
  it('finds @, # and : tokens before the caret', () => {
    expect(findTrigger('hi @bo', 6)).toEqual({ kind: 'mention', query: 'bo', start: 3, end: 6 });
    expect(findTrigger('@**Bob B', 8)).toEqual({ kind: 'mention', query: 'Bob B', start: 0, end: 8 });
    expect(findTrigger('see #gen', 8)).toEqual({ kind: 'channel', query: 'gen', start: 4, end: 8 });
    expect(findTrigger('nice :thu', 9)).toEqual({ kind: 'emoji', query: 'thu', start: 5, end: 9 });
  });

  it('stays quiet inside words, for times and for a single emoji letter', () => {
    expect(findTrigger('mail me@example', 15)).toBeUndefined();
    expect(findTrigger('at 10:30', 8)).toBeUndefined();
    expect(findTrigger('ok :t', 5)).toBeUndefined();
    expect(findTrigger('#a b', 4)).toBeUndefined();
    expect(findTrigger('', 0)).toBeUndefined();
  });

  it('replaces the token with the chosen markup and moves the caret after it', () => {
    const trigger = findTrigger('hi @bo and more', 6)!;
    expect(applyChoice('hi @bo and more', trigger, markupFor('mention', 'Bob Builder'))).toEqual({ text: 'hi @**Bob Builder**  and more', caret: 20 });
    expect(markupFor('channel', 'general')).toBe('#**general** ');
    expect(markupFor('emoji', 'smile')).toBe(':smile: ');
  });

  it('ranks names starting with the query (or with a word starting with it) before names containing it', () => {
    const names = ['Dee Lee', 'Bob Builder', 'Abby Bo', 'Rob Bobson'];
    expect(rankByName(names, (n) => n, 'bo')).toEqual(['Bob Builder', 'Abby Bo', 'Rob Bobson']);
    expect(rankByName(names, (n) => n, 'ee')).toEqual(['Dee Lee']);
    expect(rankByName(names, (n) => n, 'o', 1)).toHaveLength(1);
  });
});

describe('compose targets and drafts', () => {
  it('targets the open channel and topic, the open conversation, or the first channel', () => {
    expect(targetForView({ kind: 'channel', channelId: GENERAL, topic: 'lunch' }, OWN_ID, 99)).toEqual({ kind: 'channel', channelId: GENERAL, topic: 'lunch' });
    expect(targetForView({ kind: 'dm', userIds: [BOB, OWN_ID] }, OWN_ID, 99)).toEqual({ kind: 'dm', userIds: [BOB] });
    expect(targetForView({ kind: 'dm', userIds: [OWN_ID] }, OWN_ID, 99)).toEqual({ kind: 'dm', userIds: [OWN_ID] });
    expect(targetForView({ kind: 'starred' }, OWN_ID, 99)).toEqual({ kind: 'channel', channelId: 99, topic: '' });
  });

  it('builds sendMessage parameters as the API reads them', () => {
    expect(sendParams({ kind: 'channel', channelId: GENERAL, topic: 't' }, 'hi')).toEqual({ type: 'stream', to: String(GENERAL), topic: 't', content: 'hi' });
    expect(sendParams({ kind: 'dm', userIds: [BOB, DEE] }, 'hi')).toEqual({ type: 'direct', to: `[${BOB},${DEE}]`, content: 'hi' });
  });

  it('is ready with a channel (and a topic when topics are mandatory), or with a recipient', () => {
    expect(targetReady({ kind: 'channel', channelId: GENERAL, topic: '' }, false)).toBe(true);
    expect(targetReady({ kind: 'channel', channelId: GENERAL, topic: ' ' }, true)).toBe(false);
    expect(targetReady({ kind: 'channel', channelId: undefined, topic: 'x' }, false)).toBe(false);
    expect(targetReady({ kind: 'dm', userIds: [] }, false)).toBe(false);
  });

  it('files drafts by conversation (topics ignoring case, recipients in any order)', () => {
    const channelDraft = { id: 1, ...draftFields({ kind: 'channel', channelId: GENERAL, topic: 'Lunch' }, 'x') };
    expect(channelDraft).toMatchObject({ type: 'stream', to: [GENERAL], topic: 'Lunch', content: 'x' });
    expect(draftMatches(channelDraft, { kind: 'channel', channelId: GENERAL, topic: 'lunch' })).toBe(true);
    expect(draftMatches(channelDraft, { kind: 'channel', channelId: GENERAL, topic: 'dinner' })).toBe(false);
    const dmDraft = { id: 2, ...draftFields({ kind: 'dm', userIds: [DEE, BOB] }, 'y') };
    expect(draftMatches(dmDraft, { kind: 'dm', userIds: [BOB, DEE] })).toBe(true);
    expect(draftMatches(dmDraft, { kind: 'channel', channelId: GENERAL, topic: '' })).toBe(false);
  });

  it('writes an upload as a Markdown link', () => {
    expect(uploadMarkdown({ url: '/user_uploads/1/ab/x/notes.txt', filename: 'notes [v2].txt' })).toBe('[notes v2.txt](/user_uploads/1/ab/x/notes.txt)');
  });
});

describe('emoji', () => {
  const choices = unicodeChoices({ '1f44d': ['+1', 'thumbs_up', 'like'], '1f642': ['smile', 'slightly_smiling_face'], '2764': ['heart'] });

  it('shows glyphs from codes, joined sequences too', () => {
    expect(glyphOf('1f44d')).toBe('👍');
    expect(glyphOf('1f468-200d-1f4bb')).toBe('👨‍💻');
    expect(glyphOf('zz')).toBe('');
  });

  it('offers an emoji found by an alias under that alias, exact names first', () => {
    expect(searchEmoji(choices, 'thumbs_up').map((c) => [c.name, c.code])).toEqual([['thumbs_up', '1f44d']]);
    expect(searchEmoji(choices, 'smil').map((c) => c.name)).toEqual(['smile']);
    expect(searchEmoji(choices, 'e').map((c) => c.name)).toEqual(['heart', 'like', 'smile']);
    expect(searchEmoji(choices, '')).toHaveLength(3);
    expect(searchEmoji(choices, 'zzz')).toEqual([]);
  });

  it('offers the realm emoji that are active', () => {
    const realm = realmChoices({
      1: { id: '1', name: 'party', source_url: '/p.png', deactivated: false },
      2: { id: '2', name: 'old', source_url: '/o.png', deactivated: true },
    });
    expect(realm).toEqual([{ name: 'party', aliases: [], code: '1', reactionType: 'realm_emoji', imageUrl: '/p.png' }]);
  });
});

describe('retargeting when the view changes', () => {
  it('keeps a topic typed for the same channel when the new view names none', () => {
    const typed = { kind: 'channel' as const, channelId: GENERAL, topic: 'hello' };
    expect(retarget(typed, { kind: 'channel', channelId: GENERAL, topic: '' })).toBe(typed);
    expect(retarget(typed, { kind: 'channel', channelId: GENERAL, topic: 'lunch' })).toEqual({ kind: 'channel', channelId: GENERAL, topic: 'lunch' });
    expect(retarget(typed, { kind: 'channel', channelId: 99, topic: '' })).toEqual({ kind: 'channel', channelId: 99, topic: '' });
    expect(retarget(typed, { kind: 'dm', userIds: [BOB] })).toEqual({ kind: 'dm', userIds: [BOB] });
  });

  it('sends a topic typed right after a channel click to that channel, even when the box was on another channel', () => {
    // The combined feed's box targets the first channel; the user clicks "general" and types
    // "hello" before the view follows the click.
    const typedBeforeTheView = { kind: 'channel' as const, channelId: RANDOM, topic: 'hello' };
    const next = retarget(typedBeforeTheView, { kind: 'channel', channelId: GENERAL, topic: '' }, true);
    expect(next).toEqual({ kind: 'channel', channelId: GENERAL, topic: 'hello' });
    expect(sendParams(next, 'hi')).toEqual({ type: 'stream', to: String(GENERAL), topic: 'hello', content: 'hi' });
    // A topic that came from the previous view (not typed) does not follow to another channel.
    expect(retarget(typedBeforeTheView, { kind: 'channel', channelId: GENERAL, topic: '' }, false)).toEqual({ kind: 'channel', channelId: GENERAL, topic: '' });
    // An empty typed topic is no topic; a view naming its topic wins.
    expect(retarget({ ...typedBeforeTheView, topic: '' }, { kind: 'channel', channelId: GENERAL, topic: '' }, true)).toEqual({ kind: 'channel', channelId: GENERAL, topic: '' });
    expect(retarget(typedBeforeTheView, { kind: 'channel', channelId: GENERAL, topic: 'lunch' }, true)).toEqual({ kind: 'channel', channelId: GENERAL, topic: 'lunch' });
  });
});

describe('upload paths', () => {
  it('reads the realm and file of an upload link', async () => {
    const { uploadParams } = await import('../../../packages/web/src/lib/upload-files');
    expect(uploadParams('/user_uploads/1/ab/cd/notes%20v2.txt')).toEqual({ realm_id: '1', filename: 'ab/cd/notes v2.txt' });
    expect(uploadParams('/user_uploads/1/ab/cd/x.png?download=1')).toEqual({ realm_id: '1', filename: 'ab/cd/x.png' });
    expect(uploadParams('/static/x.png')).toBeUndefined();
  });
});

describe('avatars', () => {
  it('fetches uploaded avatars through the client (by path), not Gravatar or custom emoji', async () => {
    const { serverAvatarPath, initialsOf } = await import('../../../packages/web/src/lib/avatar');
    expect(serverAvatarPath('http://chat.example/user_avatars/1/abc.png?version=3')).toBe('/user_avatars/1/abc.png?version=3');
    expect(serverAvatarPath('/user_avatars/1/abc.png')).toBe('/user_avatars/1/abc.png');
    expect(serverAvatarPath('/user_avatars/1/emoji/images/1.png')).toBeUndefined();
    expect(serverAvatarPath('https://secure.gravatar.com/avatar/x')).toBeUndefined();
    expect(initialsOf('Olive Owner')).toBe('OO');
    expect(initialsOf('  cher ')).toBe('C');
    expect(initialsOf('Ann B. Cole')).toBe('AC');
  });
});
