/**
 * `#**channel**`, `#**channel>topic**` and `#**channel>topic@123**`: links to a channel, a topic
 * and a message in it. They start after whitespace or an opening delimiter, but not after `[`,
 * so `[#**channel**](url)` does not nest links. An unknown channel leaves the text as typed.
 */
import { channelSlug, hashEncode } from '../url.js';
import type { InlineEnv, InlinePattern } from './engine.js';
import type { InlineNode } from './nodes.js';

const BEFORE_LINK = String.raw`(?<![^\s'"({\/<])`;
const DEFAULT_EMPTY_TOPIC_NAME = 'general chat';

// The link: `#channel > topic` as plain text, or with the empty topic's display name in <em>.
function link(env: InlineEnv, attrs: Record<string, string>, text: string, topic?: string, after = ''): InlineNode {
  if (topic !== '') return { kind: 'element', tag: 'a', attrs, content: `${text}${topic ?? ''}${after}`, literal: true };
  // The empty topic shows the realm's name for it, emphasized, as the reference does.
  const name = env.ctx.emptyTopicDisplayName ?? DEFAULT_EMPTY_TOPIC_NAME;
  const em = env.stash.add({ kind: 'element', tag: 'em', attrs: {}, content: name, literal: true }, name);
  const prefix = env.stash.add({ kind: 'text', text }, text);
  const suffix = after ? env.stash.add({ kind: 'text', text: after }, after) : '';
  return { kind: 'element', tag: 'a', attrs, content: `${prefix}${em}${suffix}` };
}

// The channel's narrow URL, slugged from the name as typed (as the reference does).
function narrow(env: InlineEnv, channelName: string): { id: string; base: string } | null {
  const channel = env.ctx.channelByName?.(channelName) ?? null;
  return channel && { id: String(channel.id), base: `/#narrow/channel/${channelSlug(channel.id, channelName)}` };
}

// The names as typed (a code span inside one shows as its source text).
function typed<K extends string>(match: RegExpExecArray, env: InlineEnv, names: K[]): Record<K, string> {
  const values = {} as Record<K, string>;
  for (const name of names) values[name] = env.stash.toSource(match.groups?.[name] ?? '');
  return values;
}

/** `#**channel>topic@123**`. */
export const messageLink: InlinePattern = {
  name: 'stream_topic_message',
  regex: new RegExp(String.raw`${BEFORE_LINK}#\*\*(?<channel>[^*>]+)>(?<topic>[^*]*)@(?<id>\d+)\*\*`, 'g'),
  handle: (match, env) => {
    const { channel, topic, id } = typed(match, env, ['channel', 'topic', 'id']);
    const target = narrow(env, channel);
    if (!target) return null;
    const href = `${target.base}/topic/${hashEncode(topic)}/near/${id}`;
    return { node: link(env, { class: 'message-link', href }, `#${channel} > `, topic, ' @ 💬') };
  },
};

/** `#**channel>topic**`. */
export const topicLink: InlinePattern = {
  name: 'topic',
  regex: new RegExp(String.raw`${BEFORE_LINK}#\*\*(?<channel>[^*>]+)>(?<topic>[^*]*)\*\*`, 'g'),
  handle: (match, env) => {
    const { channel, topic } = typed(match, env, ['channel', 'topic']);
    const target = narrow(env, channel);
    if (!target) return null;
    const attrs = { class: 'stream-topic', 'data-stream-id': target.id, href: `${target.base}/topic/${hashEncode(topic)}` };
    return { node: link(env, attrs, `#${channel} > `, topic) };
  },
};

/** `#**channel**`. */
export const channelLink: InlinePattern = {
  name: 'stream',
  regex: new RegExp(String.raw`${BEFORE_LINK}#\*\*(?<channel>[^*]+)\*\*`, 'g'),
  handle: (match, env) => {
    const name = typed(match, env, ['channel']).channel;
    const target = narrow(env, name);
    if (!target) return null;
    const attrs = { class: 'stream', 'data-stream-id': target.id, href: target.base };
    return { node: { kind: 'element', tag: 'a', attrs, content: `#${name}`, literal: true } };
  },
};
