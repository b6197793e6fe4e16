/**
 * The markdown-it instance. markdown-it parses the block structure (paragraphs, lists, quotes,
 * headings, tables, indented code) and renders tokens; raw HTML is off, so a tag typed in a
 * message is text, escaped on output, never sanitised after the fact. Inline text goes through
 * the inline pass (inline/engine.ts), which mirrors the reference's pattern order.
 */
import markdownIt, { type Env, type MarkdownIt, type StateCore } from 'markdown-it';
import { adaptBlockRules } from './block-rules.js';
import { renderCodeBlock } from './code-block.js';
import { escapeText } from './html.js';
import { addImagePreviews } from './image-previews.js';
import { runPatterns, type InlineEnv, type InlinePattern } from './inline/engine.js';
import { toTokens } from './inline/tokens.js';
import { linkHrefs } from './metadata.js';

/** Per-render state handed to markdown-it as its `env`. */
export interface ParseEnv extends Env {
  inline: Omit<InlineEnv, 'inQuote'>;
  patterns: readonly InlinePattern[];
  /** Set by the parse: the rendering's links (before previews replace any), in order. */
  hrefs: string[];
  /** Set by the parse: an image preview was added. */
  hasImage: boolean;
}

// Runs the inline pass over every inline token; mentions inside quotes are silent.
function inlinePass(state: StateCore): void {
  const env = state.env as ParseEnv;
  let quoteDepth = 0;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') quoteDepth++;
    else if (token.type === 'blockquote_close') quoteDepth--;
    else if (token.type === 'inline') {
      const text = runPatterns(token.content, env.patterns, { ...env.inline, inQuote: quoteDepth > 0 });
      token.children = toTokens(text, env.inline.stash, state.Token);
    }
  }
}

// Records the links, then adds image previews (which may replace a bare link).
function linksPass(state: StateCore): void {
  const env = state.env as ParseEnv;
  env.hrefs = linkHrefs(state.tokens);
  const previews = env.inline.ctx.imagePreviews;
  if (previews) env.hasImage = addImagePreviews(state.tokens, previews, state.Token);
}

function createParser(): MarkdownIt {
  const md = markdownIt('default', { html: false, breaks: true, linkify: false, typographer: false });
  adaptBlockRules(md);
  md.core.ruler.at('inline', inlinePass);
  md.core.ruler.after('inline', 'zulip_links', linksPass);

  const rules = md.renderer.rules;
  rules.text = (tokens, idx) => escapeText(tokens[idx]!.content);
  rules.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx]!.content)}</code>`;
  rules.code_block = (tokens, idx) => `${renderCodeBlock(tokens[idx]!.content, null)}\n`;
  rules.zulip_html = (tokens, idx) => tokens[idx]!.content;
  // A nested list follows its item's text directly (`<li>text<ul>`), as in the reference.
  const listOpen: NonNullable<typeof rules.text> = (tokens, idx, options, _env, self) => {
    const html = self.renderToken(tokens, idx, options);
    return tokens[idx - 1]?.hidden ? html.replace(/^\n/, '') : html;
  };
  rules.bullet_list_open = listOpen;
  rules.ordered_list_open = listOpen;
  return md;
}

let parser: MarkdownIt | undefined;

/** The shared instance (stateless between renders: all per-message state travels in `env`). */
export function markdownParser(): MarkdownIt {
  parser ??= createParser();
  return parser;
}
