/** A small realm for the renderer's tests: a few users, a group, channels and emoji. */
import type { MentionableUser, RenderContext } from '../../packages/core/src/markdown/index.js';

const USERS: MentionableUser[] = [
  { id: 5, fullName: 'Alice Smith' },
  { id: 6, fullName: 'Bob Jones', isActive: false },
  { id: 7, fullName: 'Alice Smith' },
];
const GROUPS = [
  { id: 17, name: 'Support' },
  { id: 18, name: 'old-team', deactivated: true },
];
const CHANNELS = [
  { id: 9, name: 'design team' },
  { id: 3, name: 'Verona' },
];
const EMOJI: Record<string, string> = { smile: '1f642', heart: '2764', poop: '1f4a9', octopus: '1f419' };

/** The test realm's context, with `overrides` on top. */
export function testContext(overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    realmUrl: 'https://chat.example.com',
    // Names match case-insensitively; the first user wins, as a name lookup must pick one.
    userByName: (name) => USERS.find((u) => u.fullName.toLowerCase() === name.toLowerCase()) ?? null,
    userById: (id) => USERS.find((u) => u.id === id) ?? null,
    groupByName: (name) => GROUPS.find((g) => g.name.toLowerCase() === name.toLowerCase()) ?? null,
    channelByName: (name) => CHANNELS.find((c) => c.name === name) ?? null,
    emojiByName: (name) => {
      if (name === 'parrot') return { kind: 'image', url: '/user_avatars/2/emoji/images/1.gif' };
      const code = EMOJI[name];
      return code ? { kind: 'unicode', code } : null;
    },
    emojiNameByCode: (code) => Object.entries(EMOJI).find(([, c]) => c === code)?.[0] ?? null,
    ...overrides,
  };
}
