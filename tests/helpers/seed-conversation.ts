/**
 * A small team's conversation, as a real one looks: a few channels with topics, Markdown
 * (code, lists, mentions, links), a direct message and reactions. Used by the screenshot script.
 */
import type { WebServer, WebUser } from './web-server.js';

export const TEAM = [
  { email: 'ada@acme.test', fullName: 'Ada Lovelace' },
  { email: 'grace@acme.test', fullName: 'Grace Hopper' },
  { email: 'linus@acme.test', fullName: 'Linus Pauling' },
  { email: 'marie@acme.test', fullName: 'Marie Curie' },
] as const;

type Line = [sender: number, content: string, reactions?: [reactor: number, emoji: string][]];

const CHANNELS: { name: string; description: string; topics: { topic: string; lines: Line[] }[] }[] = [
  {
    name: 'engineering',
    description: 'Building and shipping teamchat',
    topics: [
      {
        topic: 'release 0.4',
        lines: [
          [0, 'Release branch is cut. Remaining before we tag:\n- changelog\n- upgrade notes for self-hosters\n\nThe drafts migration is merged.'],
          [1, 'I can take the changelog this afternoon.', [[0, 'thumbs_up'], [2, 'thumbs_up']]],
          [2, '@**Ada Lovelace** the upgrade test passes on PostgreSQL 15 and 16 now :tada:', [[0, 'tada']]],
          [0, 'Great! Then we tag tomorrow at 10:00 UTC.'],
        ],
      },
      {
        topic: 'flaky login test',
        lines: [
          [3, 'The login rate-limit test fails about once in fifty runs on CI.'],
          [1, 'It sleeps for a fixed time. Could we inject the clock instead?\n```ts\nconst clock = fakeClock(Date.parse("2026-01-01"));\n```'],
          [3, 'Good idea, trying that now.', [[1, 'heart']]],
        ],
      },
    ],
  },
  {
    name: 'design',
    description: 'Interface, accessibility and themes',
    topics: [
      {
        topic: 'dark theme',
        lines: [
          [1, 'First pass at the dark theme is up for review. Contrast is AA everywhere except the timestamps.'],
          [3, 'Looks lovely. The unread badges could use a bit more weight.', [[1, 'thumbs_up']]],
        ],
      },
    ],
  },
  {
    name: 'general',
    description: 'Everything else',
    topics: [
      {
        topic: 'lunch',
        lines: [
          [2, 'Anyone up for lunch at the new ramen place on Friday?'],
          [0, 'Count me in!', [[2, 'smile']]],
          [3, 'Me too :ramen:'],
        ],
      },
    ],
  },
];

/** Posts the conversation; `users` are TEAM's, in its order (the first is the realm's owner). */
export async function seedConversation(server: WebServer, users: readonly WebUser[]): Promise<void> {
  const owner = users[0]!;
  for (const channel of CHANNELS) {
    await server.api(owner, 'POST', '/users/me/subscriptions', {
      subscriptions: [{ name: channel.name, description: channel.description }],
      principals: users.map((u) => u.id),
    });
  }
  for (const channel of CHANNELS) {
    for (const { topic, lines } of channel.topics) {
      for (const [sender, content, reactions = []] of lines) {
        const sent = await server.api(users[sender]!, 'POST', '/messages', { type: 'stream', to: channel.name, topic, content });
        for (const [reactor, emoji] of reactions) {
          await server.api(users[reactor]!, 'POST', `/messages/${sent.id}/reactions`, { emoji_name: emoji });
        }
      }
    }
  }
  await server.api(users[2]!, 'POST', '/messages', {
    type: 'private',
    to: [users[0]!.id],
    content: 'Thanks for the review yesterday, the notes were really helpful.',
  });
}
