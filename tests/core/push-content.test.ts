/** The text of a push notification from rendered HTML (the reference's get_mobile_push_content cases). */
import { describe, expect, it } from 'vitest';
import { mobilePushContent } from '../../packages/core/src/push/content.js';

const text = (html: string) => mobilePushContent(html).content;

describe('push notification content', () => {
  it('reads paragraphs, line breaks, entities and mentions as text', () => {
    expect(text('<p>a</p>\n<p>b</p>')).toBe('a\nb');
    expect(text('<p>line1<br>\nline2</p>')).toBe('line1\nline2');
    expect(text('<p>Tom &amp; Jerry &lt;3 &#x27;hi&#39;</p>')).toBe("Tom & Jerry <3 'hi'");
    expect(text('<p><span class="user-mention" data-user-id="2">@Otto Other</span> hello</p>')).toBe('@Otto Other hello');
    expect(text('<ul>\n<li>a</li>\n<li>b</li>\n</ul>')).toBe('\na\nb\n');
  });

  it('shows emoji as characters and images by their alt text', () => {
    const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';
    expect(text(`<p>${smile} hi</p>`)).toBe('🙂 hi');
    expect(text('<p><span class="emoji emoji-1f1e9-1f1ea" title="de">:de:</span></p>')).toBe('🇩🇪');
    expect(text('<p><img alt=":party_parrot:" class="emoji" src="/user_avatars/1/emoji/a.gif" title="party parrot"> yes</p>')).toBe(':party_parrot: yes');
  });

  it('quotes alone are prefixed; beside other text they collapse to […]', () => {
    expect(text('<blockquote>\n<p>quoted<br>\nmore</p>\n</blockquote>')).toBe('> quoted\n> more\n');
    expect(text('<blockquote>\n<p>quoted</p>\n</blockquote>\n<p>reply</p>')).toBe('[…]\nreply');
    const said = '<p><span class="user-mention silent" data-user-id="2">Otto</span> <a href="http://chat.example.com/#narrow/channel/1-general/topic/t/near/5">said</a>:</p>';
    expect(text(`${said}\n<blockquote>\n<p>hi</p>\n</blockquote>\n<p>and?</p>`)).toBe('[…]\nand?');
  });

  it('numbers ordered lists, hides spoilers behind their header, and shows TeX source', () => {
    expect(text('<ol>\n<li>one</li>\n<li>two</li>\n</ol>')).toBe('1. one\n2. two');
    expect(text('<ol start="3">\n<li>three</li>\n</ol>')).toBe('3. three');
    expect(text('<div class="spoiler-block"><div class="spoiler-header">\n<p>Head</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>hidden</p>\n</div></div>')).toBe('Head (…)\n');
    expect(text('<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content"><p>x</p></div></div>')).toBe('(…)\n');
    const tex = '<span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">x2</span></span>';
    expect(text(`<p>${tex} and more</p>`)).toBe('$$x^2$$ and more');
  });

  it('cuts at 200 characters (code points) with an ellipsis', () => {
    expect(mobilePushContent(`<p>${'x'.repeat(200)}</p>`)).toEqual({ content: 'x'.repeat(200), truncated: false });
    expect(mobilePushContent(`<p>${'😀'.repeat(201)}</p>`)).toEqual({ content: `${'😀'.repeat(200)}…`, truncated: true });
  });

  it('survives malformed markup without throwing', () => {
    expect(text('<p>open <b>bold</p> tail</i> < 3')).toBe('open bold tail < 3');
    expect(text('&#xFFFFFFF; &bogus;')).toBe('&#xFFFFFFF; &bogus;');
  });
});
