/**
 * Hostile input. Raw HTML is escaped (markdown-it runs with `html: false`), never sanitised after
 * the fact, so the checks here are on the output: only the renderer's own tags and attributes
 * appear, no event handler attributes, and every href and src is a safe scheme or relative.
 */
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../packages/core/src/markdown/index.js';
import { testContext } from './markdown-context.js';

const TAGS = new Set(
  'p br strong em del code pre div span a blockquote ul ol li h1 h2 h3 h4 h5 h6 table thead tbody tr th td hr time img'.split(' '),
);
// KaTeX's MathML, inside `<span class="katex">`.
const MATHML = new Set('math semantics mrow mi mo mn msup msub msubsup mtext mstyle annotation mspace mfrac msqrt mover munder'.split(' '));
const ATTRIBUTES = /^(class|href|title|alt|src|datetime|start|role|aria-label|aria-hidden|data-[a-z-]+|style|xmlns|encoding|display|mathvariant|separator|stretchy|lspace|rspace|mathcolor)$/;
const SAFE_URL = /^(https?:|mailto:|tel:|sms:|ftp:|\/|#|user_uploads\/)/;

/** Asserts that rendered HTML holds nothing a message's author could have injected. */
function expectSafe(html: string): void {
  for (const [, tag, attrs] of html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
    expect(TAGS.has(tag!) || MATHML.has(tag!), `tag <${tag}> in ${html}`).toBe(true);
    for (const [, name, value] of attrs!.matchAll(/\s([^\s=]+)="([^"]*)"/g)) {
      expect(name, `attribute ${name} in ${html}`).toMatch(ATTRIBUTES);
      if (name === 'href' || name === 'src') expect(value, `${name} in ${html}`).toMatch(SAFE_URL);
    }
    // Anything between attributes that is not a quoted attribute would be an injected one.
    expect(attrs!.replace(/\s[^\s=]+="[^"]*"/g, '').trim(), html).toBe('');
  }
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<<script>script>alert(1)<</script>/script>',
  '<svg/onload=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](\u0001javascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](&#106;avascript:alert(1))',
  '[x](https://ok.example/"onmouseover="alert(1))',
  '[x](https://ok.example "title\\" onmouseover=\\"alert(1)")',
  'javascript:alert(1) and javascript://example.com/%0aalert(1)',
  '![x](javascript:alert(1))',
  '<time:"><script>alert(1)</script>>',
  '```spoiler <script>alert(1)</script>\n<img src=x onerror=alert(1)>\n```',
  '```"><script>alert(1)</script>\ncode\n```',
  '~~~ quote\n<script>alert(1)</script>\n~~~',
  '@**<script>alert(1)</script>** #**<script>** :<script>:',
  '$$\\href{javascript:alert(1)}{x}$$',
  '```math\n\\url{javascript:alert(1)}\n```',
  '&lt;script&gt; &#60;script&#62; &#x3C;img src=x onerror=alert(1)&#x3E;',
  '| <b>a</b> | b |\n| --- | --- |\n| <script> | [x](javascript:1) |',
  '\u0002B0\u0003 \u00020\u0003',
];

describe('hostile input renders inert', () => {
  it.each(HOSTILE)('%j', (input) => {
    const { html } = renderMessage(input, testContext({ linkifiers: [{ pattern: 'x(?P<n>[0-9])', urlTemplate: 'javascript:{n}' }] }));
    expectSafe(html);
    expect(html).not.toMatch(/<(script|img src="x"|svg|iframe)/i);
  });

  it('raw HTML is shown as text', () => {
    expect(renderMessage('<b onclick="x()">hi</b>', testContext()).html).toBe('<p>&lt;b onclick="x()"&gt;hi&lt;/b&gt;</p>');
  });

  it('placeholder characters typed by the sender cannot pull in parked HTML', () => {
    expect(renderMessage('\u0002B0\u0003\n```\ncode\n```', testContext()).html).toBe(
      '<p>B0</p>\n<div class="codehilite"><pre><span></span><code>code\n</code></pre></div>',
    );
  });

  it('names from the realm are escaped too', () => {
    const ctx = testContext({ userByName: () => ({ id: 1, fullName: '<img src=x onerror=alert(1)>' }) });
    expect(renderMessage('@**x**', ctx).html).toBe(
      '<p><span class="user-mention" data-user-id="1">@&lt;img src=x onerror=alert(1)&gt;</span></p>',
    );
  });
});
