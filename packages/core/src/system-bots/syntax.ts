/** The Markdown the reference's notices use to name people, channels and topics. */
import type { User } from '../storage/types.js';

/** silent_mention_syntax_for_user: names a user without notifying them. */
export const silentMention = (user: Pick<User, 'fullName' | 'id'>) => `@_**${user.fullName}|${user.id}**`;

/** A channel link: `#**name**`. */
export const channelLink = (name: string) => `#**${name}**`;

/** A topic link: `#**channel>topic**`. */
export const topicLink = (channel: string, topic: string) => `#**${channel}>${topic}**`;
