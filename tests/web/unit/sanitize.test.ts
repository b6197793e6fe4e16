// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeMessageHtml } from '../../../packages/web/src/lib/sanitize';

describe('the message HTML sanitizer', () => {
  it('removes script elements and their content', () => {
    expect(sanitizeMessageHtml('<p>hi<script>window.__xss = 1</script></p>')).toBe('<p>hi</p>');
  });

  it('removes event handler attributes', () => {
    const clean = sanitizeMessageHtml('<img src="/user_uploads/1/a.png" onerror="window.__xss = 1" alt="a"><p onclick="x()">t</p>');
    expect(clean).not.toMatch(/onerror|onclick/);
    expect(clean).toContain('src="/user_uploads/1/a.png"');
  });

  it('removes javascript: and data: URLs, keeping web, mail, server and in-app links', () => {
    expect(sanitizeMessageHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeMessageHtml('<a href="JaVaScRiPt:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeMessageHtml('<img src="data:image/svg+xml,<svg onload=alert(1)>">')).toBe('<img>');
    expect(sanitizeMessageHtml('<a href="mailto:a@example.com">m</a>')).toContain('href="mailto:a@example.com"');
    expect(sanitizeMessageHtml('<a href="#narrow/channel/1-general">c</a>')).toBe('<a href="#narrow/channel/1-general">c</a>');
    expect(sanitizeMessageHtml('<a href="//evil.example/x">p</a>')).toBe('<a>p</a>');
  });

  it('opens outside links in a new tab that cannot reach back', () => {
    expect(sanitizeMessageHtml('<a href="https://example.com">e</a>')).toBe('<a href="https://example.com" target="_blank" rel="noopener noreferrer">e</a>');
  });

  it('drops elements outside the allow-list: iframes, forms, styles, svg, objects', () => {
    const clean = sanitizeMessageHtml(
      '<iframe src="https://x"></iframe><form action="/x"><input></form><style>*{}</style><svg onload="x()"><circle/></svg><object data="x"></object><p>kept</p>',
    );
    expect(clean).toBe('<p>kept</p>');
  });

  it('keeps what rendered Markdown uses: code, quotes, lists, tables, mentions, emoji, times', () => {
    const html =
      '<div class="codehilite" data-code-language="js"><pre><span></span><code>let x</code></pre></div>' +
      '<blockquote><p>q</p></blockquote><ul><li>a</li></ul><table><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>' +
      '<span class="user-mention" data-user-id="3">@Bob</span><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>' +
      '<time datetime="2024-01-01T00:00:00Z">x</time>';
    const clean = sanitizeMessageHtml(html);
    for (const kept of ['data-code-language="js"', '<blockquote>', '<li>a</li>', '<td>d</td>', 'data-user-id="3"', 'class="emoji emoji-1f642"', 'datetime="2024-01-01T00:00:00Z"']) {
      expect(clean).toContain(kept);
    }
    // Attributes outside the list go, even harmless-looking ones.
    expect(clean).not.toContain('role=');
    expect(clean).not.toContain('aria-label');
  });
});

describe('presentation fixes made while sanitizing', () => {
  it('shows emoji spans as their glyph', () => {
    expect(sanitizeMessageHtml('<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>')).toBe(
      '<span class="emoji emoji-1f642" title="smile">🙂</span>',
    );
    expect(sanitizeMessageHtml('<span class="emoji emoji-zzzz">:odd:</span>')).toBe('<span class="emoji emoji-zzzz">:odd:</span>');
  });

  it('keeps the server root-relative in-app links in the tab', () => {
    expect(sanitizeMessageHtml('<a class="stream" data-stream-id="1" href="/#narrow/channel/1-general">#general</a>')).toBe(
      '<a class="stream" data-stream-id="1" href="#narrow/channel/1-general">#general</a>',
    );
  });

  it('parks uploaded images for the client to load, leaving other images alone', () => {
    expect(sanitizeMessageHtml('<img src="/user_uploads/1/ab/c/pic.png">')).toBe('<img data-upload-src="/user_uploads/1/ab/c/pic.png">');
    expect(sanitizeMessageHtml('<img src="/user_avatars/1/emoji/images/1.png" class="emoji">')).toBe('<img src="/user_avatars/1/emoji/images/1.png" class="emoji">');
  });
});
