/** `renderMessage`: a message's Markdown to its `rendered_content` and what it implies. */
import { processFences } from './fences.js';
import { InlineStash } from './inline/nodes.js';
import { inlinePatterns } from './inline/patterns.js';
import { prepareLists } from './lists.js';
import { uploadPathIds } from './metadata.js';
import { normalizeLines } from './normalize.js';
import { markdownParser, type ParseEnv } from './parser.js';
import { BlockStash } from './placeholders.js';
import { renderPlainText } from './plain-text.js';
import { extendQuotes } from './quotes.js';
import type { RenderContext, RenderedMessage } from './types.js';

/**
 * Renders message content in the reference's Markdown dialect. Pure: the same content and
 * context give the same result, and nothing is read or written elsewhere. Plain prose takes
 * a shortcut (plain-text.ts) whose result is the full render's.
 */
export function renderMessage(content: string, ctx: RenderContext): RenderedMessage {
  return renderPlainText(content, ctx.linkifiers) ?? renderMarkdown(content, ctx);
}

/** The full render, whatever the content: markdown-it and the inline patterns. */
export function renderMarkdown(content: string, ctx: RenderContext): RenderedMessage {
  const blocks = new BlockStash();
  const env: ParseEnv = {
    inline: {
      ctx,
      findings: { mentionedUserIds: new Set(), mentionedGroupIds: new Set(), wildcards: { stream: false, topic: false } },
      stash: new InlineStash(),
    },
    patterns: inlinePatterns(ctx.linkifiers ?? []),
    hrefs: [],
    hasImage: false,
  };
  // Line-level dialect first (fences, list indentation, quote extent), then markdown-it.
  const lines = prepareLists(normalizeLines(content));
  const source = extendQuotes(processFences(lines, blocks, ctx.defaultCodeBlockLanguage ?? null)).join('\n');
  const md = markdownParser();
  const html = source.trim() === '' ? '' : blocks.restore(md.renderer.render(md.parse(source, env), md.options, env)).trim();
  const attachmentPathIds = uploadPathIds(env.hrefs, ctx.realmUrl);
  return {
    html,
    ...env.inline.findings,
    hasLink: env.hrefs.length > 0,
    hasImage: env.hasImage,
    hasAttachment: attachmentPathIds.length > 0,
    attachmentPathIds,
    isMeMessage: content.startsWith('/me '),
  };
}
