/** Turning the inline pass's text-with-placeholders into markdown-it tokens for rendering. */
import type { Token } from 'markdown-it';
import { eachPart, type InlineStash } from './nodes.js';

type TokenConstructor = new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;

const TOKEN_NAMES: Record<string, string> = { a: 'link', strong: 'strong', em: 'em', del: 's' };

/** The tokens for processed inline text. */
export function toTokens(text: string, stash: InlineStash, Token: TokenConstructor): Token[] {
  const tokens: Token[] = [];
  const pushText = (content: string) => {
    const token = new Token('text', '', 0);
    token.content = content;
    tokens.push(token);
  };
  eachPart(text, pushText, (index) => {
    const node = stash.node(index);
    switch (node.kind) {
      case 'text':
        pushText(node.text);
        break;
      case 'html': {
        const token = new Token('zulip_html', '', 0);
        token.content = node.html;
        tokens.push(token);
        break;
      }
      case 'code': {
        const token = new Token('code_inline', 'code', 0);
        token.content = node.text;
        tokens.push(token);
        break;
      }
      case 'break':
        tokens.push(new Token('softbreak', 'br', 0));
        break;
      case 'element': {
        const name = TOKEN_NAMES[node.tag] ?? node.tag;
        const attrs = Object.entries(node.attrs).sort(([a], [b]) => (a < b ? -1 : 1));
        if (node.tag === 'img') {
          const token = new Token('image_emoji', 'img', 0);
          token.attrs = attrs;
          tokens.push(token);
          break;
        }
        const open = new Token(`${name}_open`, node.tag, 1);
        open.attrs = attrs;
        tokens.push(open);
        if (node.literal) pushText(node.content);
        else tokens.push(...toTokens(node.content, stash, Token));
        tokens.push(new Token(`${name}_close`, node.tag, -1));
      }
    }
  });
  return tokens;
}
