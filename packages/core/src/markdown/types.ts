/**
 * The renderer's inputs and outputs. Everything the renderer needs to know about the realm comes
 * through `RenderContext` lookups, so it never touches storage or a transport: the messages area
 * builds a context from its own reads and stores what `renderMessage` returns.
 */

/** A user a mention may name. */
export interface MentionableUser {
  id: number;
  fullName: string;
  /** A deactivated user's mention still renders, but silently (it notifies nobody). Default true. */
  isActive?: boolean;
}

/** A user group a `@*group*` mention may name. */
export interface MentionableGroup {
  id: number;
  name: string;
  /** A deactivated group's mention renders silently. Default false. */
  deactivated?: boolean;
}

/** A channel a `#**channel**` link may name. */
export interface LinkableChannel {
  id: number;
  name: string;
}

/** What an emoji name stands for: a unicode emoji (by its `emoji_code`) or an image (custom emoji). */
export type EmojiLookup = { kind: 'unicode'; code: string } | { kind: 'image'; url: string };

/** A realm linkifier, in processing order (API.md `realm_linkifiers`). */
export interface Linkifier {
  /** RE2 syntax with Python-style named groups, for example `#(?P<id>[0-9]+)`. */
  pattern: string;
  /** RFC 6570 template whose variables are the pattern's named groups. */
  urlTemplate: string;
}

/** How an image link gets its inline preview; absent means no previews are added. */
export interface ImagePreviews {
  /** The URL the preview's `<img>` loads, for the given size of the linked image. */
  thumbnailUrl(url: string, size: 'thumbnail' | 'full'): string;
}

/**
 * Everything the renderer may ask about the world. Lookups return null for unknown names; an
 * unresolved mention, group, channel or emoji is left as the text the sender typed, as the
 * reference does.
 */
export interface RenderContext {
  /** The realm's URL without a trailing slash; links into it are rewritten to relative ones. */
  realmUrl: string;
  /** `@**Full Name**`: case-insensitive, as the reference matches full names. */
  userByName?(name: string): MentionableUser | null;
  /** `@**Full Name|123**` and `@**|123**`. */
  userById?(id: number): MentionableUser | null;
  /** `@*group name*`: case-insensitive. */
  groupByName?(name: string): MentionableGroup | null;
  /** `#**channel**`, `#**channel>topic**`, `#**channel>topic@123**`: exact name. */
  channelByName?(name: string): LinkableChannel | null;
  /** The realm's linkifiers, applied in this order. */
  linkifiers?: readonly Linkifier[];
  /** `:name:`; the reference's order is custom emoji, then its extra emoji, then unicode names. */
  emojiByName?(name: string): EmojiLookup | null;
  /** The canonical name of a unicode emoji typed as a character, by its `emoji_code` (`1f4a9`). */
  emojiNameByCode?(code: string): string | null;
  /** The realm's `default_code_block_language`, for fences that name none. */
  defaultCodeBlockLanguage?: string | null;
  /** The sender's `translate_emoticons` setting: `:)` becomes `:smile:`. Default false. */
  translateEmoticons?: boolean;
  /** How `#**channel>**` (the empty topic) is shown; the realm's `realm_empty_topic_display_name`. */
  emptyTopicDisplayName?: string;
  /** Inline previews for links to images; off when absent. */
  imagePreviews?: ImagePreviews;
  /**
   * The time a `<time:…>` without a date is taken relative to (the reference uses the current
   * day). Absent, such a timestamp renders as invalid rather than depending on the clock.
   */
  now?: Date;
}

/** The rendering and what the message's flags and notifications need to know about it. */
export interface RenderedMessage {
  /** The message's `rendered_content`. */
  html: string;
  /** Users mentioned (not silently); they get the `mentioned` flag. */
  mentionedUserIds: Set<number>;
  /** Groups mentioned (not silently); their members get the `mentioned` flag. */
  mentionedGroupIds: Set<number>;
  /** `@**all**`-style (channel) and `@**topic**` wildcard mentions, not silent. */
  wildcards: { stream: boolean; topic: boolean };
  /** The rendering contains a link (the `has:link` search operator). */
  hasLink: boolean;
  /** The rendering contains an inline image preview (`has:image`). */
  hasImage: boolean;
  /** The message links to files uploaded to this realm (`has:attachment`; see attachmentPathIds). */
  hasAttachment: boolean;
  /**
   * `path_id`s of `/user_uploads/…` links in this realm, in order of appearance and without
   * duplicates; the messages area claims those that exist as the message's attachments.
   */
  attachmentPathIds: string[];
  /** The content starts with `/me ` (`is_me_message`). */
  isMeMessage: boolean;
}

/** One clickable part of a topic name (`topic_links`). */
export interface TopicLink {
  text: string;
  url: string;
}
