export { renderMessage } from './render.js';
export { renderPlainText } from './plain-text.js';
export { alertWordsMatch } from './alert-words.js';
export { topicLinks } from './topic-links.js';
export type {
  EmojiLookup,
  ImagePreviews,
  LinkableChannel,
  Linkifier,
  MentionableGroup,
  MentionableUser,
  RenderContext,
  RenderedMessage,
  TopicLink,
} from './types.js';
