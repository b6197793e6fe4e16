/** The rest of the dialect: emoji, timestamps, code, spoilers, math, /me, and the result's shape. */
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../packages/core/src/markdown/index.js';
import { testContext } from './markdown-context.js';

const render = (content: string, overrides = {}) => renderMessage(content, testContext(overrides));

describe('emoji', () => {
  it('renders names, typed characters and custom emoji', () => {
    expect(render(':octopus: 🐙 :parrot: :nope:').html).toBe(
      '<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span> ' +
        '<span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span> ' +
        '<img alt=":parrot:" class="emoji" src="/user_avatars/2/emoji/images/1.gif" title="parrot"> :nope:</p>',
    );
  });

  it('translates emoticons only for senders who want that', () => {
    expect(render('nice :)').html).toBe('<p>nice :)</p>');
    expect(render('nice :)', { translateEmoticons: true }).html).toBe(
      '<p>nice <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
    );
  });
});

describe('timestamps', () => {
  it('render ISO times, UNIX seconds and written dates in UTC', () => {
    expect(render('<time:2024-03-01T09:30:00+05:30>').html).toBe(
      '<p><time datetime="2024-03-01T04:00:00Z">2024-03-01T09:30:00+05:30</time></p>',
    );
    expect(render('<time:1496701800>').html).toBe('<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>');
    expect(render('<time:Friday, March 1st 2024 3pm EST>').html).toContain('datetime="2024-03-01T20:00:00Z"');
  });

  it('a time without a date uses the context’s day, and is invalid without one', () => {
    expect(render('<time:10:00>', { now: new Date('2024-05-06T12:00:00Z') }).html).toContain('datetime="2024-05-06T10:00:00Z"');
    expect(render('<time:10:00>').html).toBe('<p><span class="timestamp-error">Invalid time format: 10:00</span></p>');
    expect(render('<time:31 Feb 2024>').html).toContain('timestamp-error');
  });
});

describe('code', () => {
  it('names the language by its canonical name, and uses the realm’s default language', () => {
    expect(render('```js\nlet a = "<b>";\n```').html).toBe(
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>let a = &quot;&lt;b&gt;&quot;;\n</code></pre></div>',
    );
    expect(render('```\nx\n```', { defaultCodeBlockLanguage: 'python' }).html).toContain('data-code-language="Python"');
  });

  it('keeps spaces inside inline code and does not format it', () => {
    expect(render('` **a** `').html).toBe('<p><code> **a** </code></p>');
  });
});

describe('blocks', () => {
  it('spoilers hold Markdown under a Markdown header', () => {
    expect(render('```spoiler **Plot**\nHe *dies*.\n```').html).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p><strong>Plot</strong></p>\n</div>' +
        '<div class="spoiler-content" aria-hidden="true">\n<p>He <em>dies</em>.</p>\n</div></div>',
    );
  });

  it('math renders with KaTeX, and bad TeX shows as typed', () => {
    expect(render('$$x$$').html).toContain('<span class="katex">');
    expect(render('```math\n\\frac{1}{\n```').html).toBe('<p><span class="tex-error">\\frac{1}{</span></p>');
  });

  it('tables, headings and rules', () => {
    expect(render('# Title\n\n---\n\n| a | b |\n| - | - |\n| 1 | 2 |').html).toBe(
      '<h1>Title</h1>\n<hr>\n<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>',
    );
  });
});

describe('the result', () => {
  it('flags /me messages, which render as typed', () => {
    const r = render('/me waves');
    expect(r.isMeMessage).toBe(true);
    expect(r.html).toBe('<p>/me waves</p>');
    expect(render('/meh').isMeMessage).toBe(false);
  });

  it('is empty for blank content', () => {
    expect(render(' \n\n ')).toEqual({
      html: '',
      mentionedUserIds: new Set(),
      mentionedGroupIds: new Set(),
      wildcards: { stream: false, topic: false },
      hasLink: false,
      hasImage: false,
      hasAttachment: false,
      attachmentPathIds: [],
      isMeMessage: false,
    });
  });

  it('is the same for the same input (the renderer keeps no state between messages)', () => {
    const content = '@**Alice Smith** #**Verona** :smile: https://x.example/a.png\n```py\nx\n```';
    expect(render(content)).toEqual(render(content));
  });
});
