/**
 * Where the reference's emoji names differ from emoji-datasource's, for the emoji people react
 * with most. Input to generate-emoji.ts, not used at run time.
 *
 * The reference names its emoji from a hand-curated table of its own, falling back to CLDR
 * annotations; emoji-datasource's `short_names` (the iamcal / Slack names) agree with it for most
 * everyday names (octopus, tada, +1, heart, joy, eyes) but not all. Where they disagree on a name
 * that clients commonly send (`smile` is 🙂 in the reference, 😄 in iamcal; `ok` is 👌, not 🆗),
 * the reference's naming is listed here so that the same `emoji_name`/`emoji_code` pairs are
 * accepted. This is deliberately a short list, not a copy of the reference's table: emoji not
 * listed keep their iamcal names.
 */

/**
 * Code → [canonical name, ...aliases]. These names win over any iamcal name elsewhere: an iamcal
 * emoji that loses its only name to an entry here needs an entry of its own (the generator
 * refuses to leave an emoji nameless).
 */
export const NAME_OVERRIDES: Readonly<Record<string, readonly string[]>> = {
  // Faces.
  '1f600': ['grinning', 'happy'],
  '1f603': ['smiley'],
  '1f604': ['big_smile'],
  '1f601': ['grinning_face_with_smiling_eyes'],
  '1f606': ['laughing', 'lol'],
  '1f602': ['joy', 'tears', 'laughter_tears'],
  '1f923': ['rolling_on_the_floor_laughing', 'rofl'],
  '263a': ['smiling_face', 'relaxed'],
  '1f642': ['smile'],
  '1f643': ['upside_down', 'oops'],
  '1f60d': ['heart_eyes', 'in_love'],
  '1f618': ['heart_kiss', 'blow_a_kiss'],
  '1f61b': ['stuck_out_tongue', 'mischievous'],
  '1f61c': ['stuck_out_tongue_wink', 'joking', 'crazy'],
  '1f917': ['hug', 'arms_open'],
  '1f913': ['nerd', 'geek'],
  '1f615': ['oh_no', 'half_frown', 'concerned', 'confused'],
  '1f641': ['frown', 'slight_frown'],
  '2639': ['sad', 'big_frown'],
  '1f610': ['neutral'],
  '1f62e': ['open_mouth', 'surprise'],
  '1f62c': ['grimacing', 'nervous', 'anxious'],
  '1f914': ['thinking'],
  '1f4a9': ['poop', 'pile_of_poo'],
  // Hands and gestures.
  '1f44d': ['+1', 'thumbs_up', 'like'],
  '1f44e': ['-1', 'thumbs_down'],
  '1f44f': ['clap', 'applause'],
  '1f64c': ['raised_hands', 'praise'],
  '1f64f': ['folded_hands', 'welcome', 'thank_you', 'namaste', 'pray'],
  '1f44c': ['ok', 'got_it'],
  '1f197': ['squared_ok'],
  '1f44b': ['wave', 'hello', 'hi'],
  '1f440': ['eyes', 'looking'],
  // Animals whose plain name is the whole animal in the reference, the face in iamcal.
  '1f408': ['cat', 'meow'],
  '1f431': ['kitten'],
  '1f415': ['dog', 'woof'],
  '1f436': ['puppy'],
  // Common reactions in workplace chat.
  '2764': ['heart', 'love', 'love_you'],
  '1f525': ['fire', 'lit', 'hot', 'flame'],
  '1f389': ['tada'],
  '2705': ['check', 'all_good', 'approved'],
  '274c': ['cross_mark', 'incorrect', 'wrong'],
  '1f6e0': ['working_on_it', 'hammer_and_wrench', 'tools'],
  '1f4af': ['100', 'hundred'],
  '1f4a1': ['light_bulb', 'bulb', 'idea'],
  '1f557': ['time', 'clock'],
};

/**
 * Emoji the reference leaves out of its table, so they are neither valid codes nor names: the
 * skin tone modifiers on their own, and every clock face but eight o'clock (kept as `time`).
 */
export const EXCLUDED_CODES: ReadonlySet<string> = new Set([
  '1f3fb', '1f3fc', '1f3fd', '1f3fe', '1f3ff',
  '1f550', '1f551', '1f552', '1f553', '1f554', '1f555', '1f556', '1f558', '1f559', '1f55a',
  '1f55b', '1f55c', '1f55d', '1f55e', '1f55f', '1f560', '1f561', '1f562', '1f563', '1f564',
  '1f565', '1f566', '1f567',
]);
