/** Emoji checks for reactions and custom emoji names (FACTS.md 9). */
import { describe, expect, it } from 'vitest';
import {
  checkCustomEmojiName,
  checkEmojiRequest,
  type EmojiRequest,
  realmEmojiLookup,
  resolveEmojiByName,
  SERVICE_EXTRA_EMOJI,
} from '../../packages/core/src/emoji/index.js';
import { must } from '../helpers/core.js';
import { expectBadRequest } from './fixtures.js';

/** A realm with an active `green_tick` (1), a deactivated `old_logo` (2), and an active `octopus` (3) shadowing the unicode one. */
const realm = realmEmojiLookup([
  { id: '1', name: 'green_tick', deactivated: false },
  { id: '2', name: 'old_logo', deactivated: true },
  { id: '3', name: 'octopus', deactivated: false },
]);
const none = realmEmojiLookup([]);

const unicode = (emoji_name: string, emoji_code: string): EmojiRequest => ({
  emoji_name,
  emoji_code,
  reaction_type: 'unicode_emoji',
});

describe('checkEmojiRequest', () => {
  it('accepts a unicode emoji by its canonical name or an alias', () => {
    expect(must(checkEmojiRequest(unicode('octopus', '1f419'), none))).toEqual({
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    });
    must(checkEmojiRequest(unicode('thumbs_up', '1f44d'), none));
    must(checkEmojiRequest(unicode('+1', '1f44d'), none));
    must(checkEmojiRequest(unicode('heart', '2764'), none));
    must(checkEmojiRequest(unicode('smile', '1f642'), none));
    must(checkEmojiRequest(unicode('man-woman-girl-boy', '1f468-200d-1f469-200d-1f467-200d-1f466'), none));
  });

  it('refuses a unicode code the table does not have: "Invalid emoji code."', () => {
    expectBadRequest(checkEmojiRequest(unicode('octopus', '1f9ff0'), none), 'Invalid emoji code.');
    expectBadRequest(checkEmojiRequest(unicode('octopus', 'not-hex'), none), 'Invalid emoji code.');
    // The code must be in the table's form: uppercase or with FE0F is a different string.
    expectBadRequest(checkEmojiRequest(unicode('heart', '2764-fe0f'), none), 'Invalid emoji code.');
    expectBadRequest(checkEmojiRequest(unicode('octopus', '1F419'), none), 'Invalid emoji code.');
    expectBadRequest(checkEmojiRequest(unicode('+1', '1f44d-1f3fd'), none), 'Invalid emoji code.');
  });

  it('checks the code before the name', () => {
    expectBadRequest(checkEmojiRequest(unicode('no_such_name', 'ffff'), none), 'Invalid emoji code.');
  });

  it('refuses a name that is not this code: "Invalid emoji name."', () => {
    expectBadRequest(checkEmojiRequest(unicode('heart', '1f419'), none), 'Invalid emoji name.');
    expectBadRequest(checkEmojiRequest(unicode('no_such_name', '1f419'), none), 'Invalid emoji name.');
    // smile is 🙂 here, as in the reference; 😄 is big_smile.
    expectBadRequest(checkEmojiRequest(unicode('smile', '1f604'), none), 'Invalid emoji name.');
  });

  it('ignores custom emoji for unicode reactions, even one that shadows the name', () => {
    must(checkEmojiRequest(unicode('octopus', '1f419'), realm));
  });

  it('accepts an active custom emoji by ID and name', () => {
    expect(must(checkEmojiRequest({ emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' }, realm))).toEqual({
      emoji_name: 'green_tick',
      emoji_code: '1',
      reaction_type: 'realm_emoji',
    });
  });

  it('refuses custom emoji that do not exist, are misnamed or are deactivated', () => {
    const custom = (emoji_name: string, emoji_code: string) =>
      checkEmojiRequest({ emoji_name, emoji_code, reaction_type: 'realm_emoji' }, realm);
    expectBadRequest(custom('green_tick', '99'), 'Invalid custom emoji.');
    expectBadRequest(custom('green_tick', 'green_tick'), 'Invalid custom emoji.');
    expectBadRequest(custom('old_logo', '1'), 'Invalid custom emoji name.');
    expectBadRequest(custom('old_logo', '2'), 'This custom emoji has been deactivated.');
    // The name is checked before the deactivation.
    expectBadRequest(custom('green_tick', '2'), 'Invalid custom emoji name.');
  });

  it('accepts the service extra emoji only as zulip/zulip', () => {
    expect(SERVICE_EXTRA_EMOJI).toEqual({ zulip: 'zulip' });
    const extra = (emoji_name: string, emoji_code: string) =>
      checkEmojiRequest({ emoji_name, emoji_code, reaction_type: 'service_extra_emoji' }, none);
    expect(must(extra('zulip', 'zulip'))).toEqual({
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'service_extra_emoji',
    });
    expectBadRequest(extra('zulip', '1f419'), 'Invalid emoji code.');
    expectBadRequest(extra('octopus', 'zulip'), 'Invalid emoji name.');
  });

  it('refuses any other reaction type: "Invalid emoji type."', () => {
    for (const reaction_type of ['zulip_extra_emoji', 'Unicode_emoji', '', 'custom']) {
      expectBadRequest(
        checkEmojiRequest({ emoji_name: 'octopus', emoji_code: '1f419', reaction_type }, none),
        'Invalid emoji type.',
      );
    }
  });
});

describe('resolveEmojiByName', () => {
  it('prefers an active custom emoji, then zulip, then unicode', () => {
    expect(must(resolveEmojiByName('octopus', realm))).toEqual({ emoji_code: '3', reaction_type: 'realm_emoji' });
    expect(must(resolveEmojiByName('octopus', none))).toEqual({ emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    expect(must(resolveEmojiByName('green_tick', realm))).toEqual({ emoji_code: '1', reaction_type: 'realm_emoji' });
    expect(must(resolveEmojiByName('zulip', none))).toEqual({ emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
    expect(must(resolveEmojiByName('thumbs_up', none))).toEqual({ emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
  });

  it('lets a custom emoji named zulip win over the service one', () => {
    const shadow = realmEmojiLookup([{ id: '7', name: 'zulip', deactivated: false }]);
    expect(must(resolveEmojiByName('zulip', shadow))).toEqual({ emoji_code: '7', reaction_type: 'realm_emoji' });
  });

  it('skips deactivated custom emoji, even from a lookup that returns them', () => {
    expectBadRequest(resolveEmojiByName('old_logo', realm), "Emoji 'old_logo' does not exist");
    const leaky = { byId: () => undefined, activeByName: () => ({ id: '5', name: 'heart', deactivated: true }) };
    expect(must(resolveEmojiByName('heart', leaky))).toEqual({ emoji_code: '2764', reaction_type: 'unicode_emoji' });
  });

  it('reports unknown names', () => {
    expectBadRequest(resolveEmojiByName('no_such_emoji', realm), "Emoji 'no_such_emoji' does not exist");
    expectBadRequest(resolveEmojiByName('', none), "Emoji '' does not exist");
    expectBadRequest(resolveEmojiByName('toString', none), "Emoji 'toString' does not exist");
  });
});

describe('checkCustomEmojiName', () => {
  it('accepts lowercase letters, digits, dashes and underscores ending in a letter or digit', () => {
    for (const name of ['green_tick', 'a', '9', 'party-parrot', 'x_1-y2']) expect(must(checkCustomEmojiName(name))).toBe(name);
  });

  it('refuses a missing or empty name', () => {
    expectBadRequest(checkCustomEmojiName(undefined), 'Emoji name is missing');
    expectBadRequest(checkCustomEmojiName(''), 'Emoji name is missing');
  });

  it('refuses a trailing dash or underscore', () => {
    for (const name of ['tick_', 'tick-', '_', '--']) {
      expectBadRequest(checkCustomEmojiName(name), 'Emoji names must end with either a letter or digit.');
    }
  });

  it('refuses other characters', () => {
    for (const name of ['Tick', 'green tick', 'tick!', 'café', 'a+b']) {
      expectBadRequest(
        checkCustomEmojiName(name),
        'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
      );
    }
  });
});
