/**
 * `@**Full Name**`, `@**Full Name|id**`, `@**|id**`, silent `@_**…**`, the wildcards, and group
 * mentions `@*group*`. A mention only starts after whitespace or an opening delimiter (so an
 * email address is not one), names the user with their current full name, and is plain text
 * when it names nobody. Quoted and deactivated mentions render silently and notify no one.
 */
import type { InlineEnv, InlinePattern } from './engine.js';

// Start of text, whitespace, or one of ' " ( { [ / <.
const BEFORE_MENTION = String.raw`(?<![^\s'"({[\/<])`;

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
const TOPIC_WILDCARD = 'topic';

const span = (attrs: Record<string, string>, content: string) =>
  ({ kind: 'element' as const, tag: 'span', attrs, content, literal: true });

function findUser(name: string, env: InlineEnv) {
  const byId = /^(?<fullName>.+)?\|(?<id>\d+)$/.exec(name);
  if (!byId) return env.ctx.userByName?.(name) ?? null;
  const user = env.ctx.userById?.(Number(byId.groups!.id)) ?? null;
  // `@**Name|id**` must name that user exactly, so a stale or mismatched pair stays text.
  const fullName = byId.groups!.fullName;
  if (user && fullName !== undefined && user.fullName !== fullName) return null;
  return user;
}

/** `@**…**` and `@_**…**`. */
export const userMention: InlinePattern = {
  name: 'usermention',
  regex: new RegExp(String.raw`${BEFORE_MENTION}@(?<silent>_?)\*\*(?<name>[^*]+)\*\*`, 'g'),
  handle: (match, env) => {
    const name = match.groups!.name!;
    const silent = match.groups!.silent === '_' || env.inQuote;
    const suffix = silent ? ' silent' : '';
    if (STREAM_WILDCARDS.has(name)) {
      if (!silent) env.findings.wildcards.stream = true;
      const attrs = { class: `user-mention channel-wildcard-mention${suffix}`, 'data-user-id': '*' };
      return { node: span(attrs, silent ? name : `@${name}`) };
    }
    if (name === TOPIC_WILDCARD) {
      if (!silent) env.findings.wildcards.topic = true;
      return { node: span({ class: `topic-mention${suffix}` }, silent ? name : `@${name}`) };
    }
    const user = findUser(name, env);
    if (!user) return null;
    const quiet = silent || user.isActive === false;
    if (!quiet) env.findings.mentionedUserIds.add(user.id);
    const attrs = { class: `user-mention${quiet ? ' silent' : ''}`, 'data-user-id': String(user.id) };
    return { node: span(attrs, quiet ? user.fullName : `@${user.fullName}`) };
  },
};

/** `@*group*` and `@_*group*`. */
export const groupMention: InlinePattern = {
  name: 'usergroupmention',
  regex: new RegExp(String.raw`${BEFORE_MENTION}@(?<silent>_?)\*(?<name>[^*]+)\*`, 'g'),
  handle: (match, env) => {
    const group = env.ctx.groupByName?.(match.groups!.name!) ?? null;
    if (!group) return null;
    const silent = match.groups!.silent === '_' || env.inQuote || group.deactivated === true;
    if (!silent) env.findings.mentionedGroupIds.add(group.id);
    const attrs = { class: `user-group-mention${silent ? ' silent' : ''}`, 'data-user-group-id': String(group.id) };
    return { node: span(attrs, silent ? group.name : `@${group.name}`) };
  },
};
