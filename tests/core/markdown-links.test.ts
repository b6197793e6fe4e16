/** Channel, topic and message links; linkifiers; links into the realm; has:link and attachments. */
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../packages/core/src/markdown/index.js';
import { testContext } from './markdown-context.js';

const ISSUES = { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/zulip/zulip/issues/{id}' };
const render = (content: string, linkifiers = [ISSUES]) => renderMessage(content, testContext({ linkifiers }));

describe('channel links', () => {
  it('link a channel, a topic and a message, with #narrow URLs encoded as the reference does', () => {
    expect(render('#**design team**').html).toBe(
      '<p><a class="stream" data-stream-id="9" href="/#narrow/channel/9-design-team">#design team</a></p>',
    );
    expect(render('#**design team>hello world.x**').html).toBe(
      '<p><a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-design-team/topic/hello.20world.2Ex">#design team &gt; hello world.x</a></p>',
    );
    expect(render('#**Verona>lunch@42**').html).toBe(
      '<p><a class="message-link" href="/#narrow/channel/3-Verona/topic/lunch/near/42">#Verona &gt; lunch @ 💬</a></p>',
    );
  });

  it('shows the empty topic by the realm’s name for it', () => {
    const html = renderMessage('#**Verona>**', testContext({ emptyTopicDisplayName: 'general chat' })).html;
    expect(html).toBe('<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic/">#Verona &gt; <em>general chat</em></a></p>');
  });

  it('an unknown channel stays as typed', () => {
    expect(render('#**nowhere**').html).toBe('<p>#<strong>nowhere</strong></p>');
  });
});

describe('linkifiers', () => {
  it('link matches, keep the delimiters around them, and need a boundary on both sides', () => {
    expect(render('fix #123 and (#45), x#9 and #12a').html).toBe(
      '<p>fix <a href="https://github.com/zulip/zulip/issues/123">#123</a> and (<a href="https://github.com/zulip/zulip/issues/45">#45</a>), x#9 and #12a</p>',
    );
  });

  it('apply in order: the first linkifier claims the text', () => {
    const first = { pattern: 'ABC-(?P<id>[0-9]+)', urlTemplate: 'https://one.example/{id}' };
    const second = { pattern: '(?P<key>[A-Z]+)-(?P<id>[0-9]+)', urlTemplate: 'https://two.example/{key}/{id}' };
    expect(render('ABC-1 XY-2', [first, second]).html).toBe(
      '<p><a href="https://one.example/1">ABC-1</a> <a href="https://two.example/XY/2">XY-2</a></p>',
    );
  });

  it('do not run inside links, code or other linkifiers’ links', () => {
    expect(render('[see #1](https://x.example) `#2`').html).toBe(
      '<p><a href="https://x.example">see #1</a> <code>#2</code></p>',
    );
  });

  it('expand RFC 6570 templates (reserved expansion keeps slashes)', () => {
    const path = { pattern: 'doc:(?P<path>[a-z/]+)', urlTemplate: 'https://docs.example/{+path}' };
    expect(render('doc:guides/setup', [path]).html).toBe('<p><a href="https://docs.example/guides/setup">doc:guides/setup</a></p>');
  });

  it('skip a pattern that does not compile, and a URL the allow-list refuses', () => {
    const broken = { pattern: '(unclosed', urlTemplate: 'https://x.example/' };
    const hostile = { pattern: 'evil(?P<n>[0-9])', urlTemplate: 'javascript:alert({n})' };
    expect(render('evil1 (unclosed #7', [broken, hostile, ISSUES]).html).toBe(
      '<p>evil1 (unclosed <a href="https://github.com/zulip/zulip/issues/7">#7</a></p>',
    );
  });
});

describe('links', () => {
  it('bare URLs and addresses link; file names with TLD-like endings do not', () => {
    expect(render('see example.com, http://x.example/a_(b) or mail a@b.com; not readme.md').html).toBe(
      '<p>see <a href="http://example.com">example.com</a>, <a href="http://x.example/a_(b)">http://x.example/a_(b)</a> or mail <a href="mailto:a@b.com">a@b.com</a>; not readme.md</p>',
    );
  });

  it('links into the realm become relative, so they open in place', () => {
    expect(render('https://chat.example.com/#narrow/channel/3-Verona').html).toBe(
      '<p><a href="#narrow/channel/3-Verona">https://chat.example.com/#narrow/channel/3-Verona</a></p>',
    );
  });

  it('report has:link and the realm’s uploaded files, each once', () => {
    const r = render(
      '[a](/user_uploads/2/ab/a.pdf) https://chat.example.com/user_uploads/2/cd/b.txt https://other.example/user_uploads/9/x.txt [again](/user_uploads/2/ab/a.pdf)',
    );
    expect(r.hasLink).toBe(true);
    expect(r.attachmentPathIds).toEqual(['2/ab/a.pdf', '2/cd/b.txt']);
    expect(r.hasAttachment).toBe(true);
    expect(render('plain text').hasLink).toBe(false);
  });
});

describe('image previews', () => {
  const previews = { thumbnailUrl: (url: string, size: string) => `/thumb?u=${encodeURIComponent(url)}&s=${size}` };

  it('follow the paragraph, replace a bare image link, and set has:image', () => {
    const r = renderMessage('look https://img.example/cat.png\n\nhttps://img.example/dog.jpg', testContext({ imagePreviews: previews }));
    expect(r.html).toBe(
      '<p>look <a href="https://img.example/cat.png">https://img.example/cat.png</a></p>\n' +
        '<div class="message_inline_image"><a href="https://img.example/cat.png"><img data-src-fullsize="/thumb?u=https%3A%2F%2Fimg.example%2Fcat.png&amp;s=full" src="/thumb?u=https%3A%2F%2Fimg.example%2Fcat.png&amp;s=thumbnail"></a></div>' +
        '<div class="message_inline_image"><a href="https://img.example/dog.jpg"><img data-src-fullsize="/thumb?u=https%3A%2F%2Fimg.example%2Fdog.jpg&amp;s=full" src="/thumb?u=https%3A%2F%2Fimg.example%2Fdog.jpg&amp;s=thumbnail"></a></div>',
    );
    expect(r.hasImage).toBe(true);
    expect(r.hasLink).toBe(true);
  });

  it('are not added without a thumbnail hook, nor for quoted links', () => {
    expect(render('https://img.example/cat.png').hasImage).toBe(false);
    expect(renderMessage('> https://img.example/cat.png', testContext({ imagePreviews: previews })).hasImage).toBe(false);
  });
});
