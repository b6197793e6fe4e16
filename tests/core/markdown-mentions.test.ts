/** Mentions: users, silent, by id, wildcards, groups; quoted and deactivated ones are silent. */
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../packages/core/src/markdown/index.js';
import { testContext } from './markdown-context.js';

const render = (content: string) => renderMessage(content, testContext());

describe('user mentions', () => {
  it('renders the user by their current full name and reports them as mentioned', () => {
    const r = render('hi @**alice smith**!');
    expect(r.html).toBe('<p>hi <span class="user-mention" data-user-id="5">@Alice Smith</span>!</p>');
    expect(r.mentionedUserIds).toEqual(new Set([5]));
  });

  it('resolves @**Name|id** and @**|id**, and a name that does not match the id stays text', () => {
    expect(render('@**Alice Smith|7**').html).toBe('<p><span class="user-mention" data-user-id="7">@Alice Smith</span></p>');
    expect(render('@**|7**').mentionedUserIds).toEqual(new Set([7]));
    const mismatch = render('@**Bob Jones|5**');
    expect(mismatch.mentionedUserIds.size).toBe(0);
    expect(mismatch.html).not.toContain('user-mention');
  });

  it('silent mentions show the name without @ and mention nobody', () => {
    const r = render('@_**Alice Smith**');
    expect(r.html).toBe('<p><span class="user-mention silent" data-user-id="5">Alice Smith</span></p>');
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it('a deactivated user’s mention renders silently', () => {
    const r = render('@**Bob Jones**');
    expect(r.html).toBe('<p><span class="user-mention silent" data-user-id="6">Bob Jones</span></p>');
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it('an unknown name is left as typed (the stars then read as bold, as in the reference)', () => {
    const r = render('@**Nobody**');
    expect(r.html).toBe('<p>@<strong>Nobody</strong></p>');
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it('only starts after whitespace or an opening delimiter', () => {
    expect(render('mail me@**Alice Smith**').mentionedUserIds.size).toBe(0);
    expect(render('(@**Alice Smith**)').mentionedUserIds).toEqual(new Set([5]));
    expect(render('"@**Alice Smith**"').mentionedUserIds).toEqual(new Set([5]));
  });

  it('is not a mention inside code', () => {
    expect(render('`@**Alice Smith**`').mentionedUserIds.size).toBe(0);
    expect(render('```\n@**Alice Smith**\n```').mentionedUserIds.size).toBe(0);
  });

  it('works inside emphasis and list items', () => {
    expect(render('**hey @**Alice Smith** look**').html).toBe(
      '<p><strong>hey <span class="user-mention" data-user-id="5">@Alice Smith</span> look</strong></p>',
    );
    expect(render('* @**Alice Smith**').mentionedUserIds).toEqual(new Set([5]));
  });
});

describe('wildcard mentions', () => {
  it.each(['all', 'everyone', 'channel', 'stream'])('@**%s** is a channel-wide mention', (word) => {
    const r = render(`@**${word}**`);
    expect(r.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${word}</span></p>`);
    expect(r.wildcards).toEqual({ stream: true, topic: false });
  });

  it('@**topic** is a topic-wide mention', () => {
    const r = render('@**topic**');
    expect(r.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(r.wildcards).toEqual({ stream: false, topic: true });
  });

  it('silent wildcards notify nobody', () => {
    const r = render('@_**all** @_**topic**');
    expect(r.html).toBe(
      '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
    );
    expect(r.wildcards).toEqual({ stream: false, topic: false });
  });
});

describe('group mentions', () => {
  it('renders the group by its name, case-insensitively', () => {
    const r = render('ping @*support*');
    expect(r.html).toBe('<p>ping <span class="user-group-mention" data-user-group-id="17">@Support</span></p>');
    expect(r.mentionedGroupIds).toEqual(new Set([17]));
  });

  it('silent and deactivated groups mention nobody', () => {
    const r = render('@_*Support* @*old-team*');
    expect(r.html).toBe(
      '<p><span class="user-group-mention silent" data-user-group-id="17">Support</span> <span class="user-group-mention silent" data-user-group-id="18">old-team</span></p>',
    );
    expect(r.mentionedGroupIds.size).toBe(0);
  });

  it('an unknown group is emphasis, as typed', () => {
    expect(render('@*nobody*').html).toBe('<p>@<em>nobody</em></p>');
  });
});

describe('mentions in quotes', () => {
  it('are silent, from > quotes and ```quote blocks alike', () => {
    for (const content of ['> @**Alice Smith** said @*Support* @**all**', '```quote\n@**Alice Smith** said @*Support* @**all**\n```']) {
      const r = render(content);
      expect(r.html).toContain('<span class="user-mention silent" data-user-id="5">Alice Smith</span>');
      expect(r.html).toContain('<span class="user-group-mention silent" data-user-group-id="17">Support</span>');
      expect(r.mentionedUserIds.size + r.mentionedGroupIds.size).toBe(0);
      expect(r.wildcards.stream).toBe(false);
    }
  });

  it('a mention after the quote still counts', () => {
    expect(render('> @**Alice Smith**\n\n@**|7**').mentionedUserIds).toEqual(new Set([7]));
  });
});
