/** The inline patterns in the reference's priority order (highest first). */
import type { Linkifier } from '../types.js';
import { autolink } from './autolink.js';
import { channelLink, messageLink, topicLink } from './channel-links.js';
import { inlineCode } from './code.js';
import { emphasis, strikethrough, strong, strongEm } from './emphasis.js';
import { emojiName, emoticon, unicodeEmoji } from './emoji.js';
import type { InlinePattern } from './engine.js';
import { link } from './link.js';
import { linkifierPatterns } from './linkifiers.js';
import { inlineMath } from './math.js';
import { groupMention, userMention } from './mentions.js';
import { entity, lineBreak } from './text.js';
import { timestamp } from './timestamp.js';

const BEFORE_LINKIFIERS: readonly InlinePattern[] = [
  inlineCode,
  strongEm,
  userMention,
  inlineMath,
  messageLink,
  topicLink,
  channelLink,
  timestamp,
  groupMention,
  link,
  autolink,
];

const AFTER_LINKIFIERS: readonly InlinePattern[] = [
  entity,
  strong,
  emphasis,
  strikethrough,
  emojiName,
  emoticon,
  lineBreak,
  unicodeEmoji,
];

/** The full list for a realm: its linkifiers sit between bare links and entities. */
export function inlinePatterns(linkifiers: readonly Linkifier[]): InlinePattern[] {
  return [...BEFORE_LINKIFIERS, ...linkifierPatterns(linkifiers), ...AFTER_LINKIFIERS];
}
