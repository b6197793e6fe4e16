/**
 * What inline patterns produce, and the stash that holds it while the rest of the text is
 * processed. As in the reference (Python-Markdown), a matched piece of text is replaced by a
 * placeholder, so patterns that run later cannot match inside it, yet can match around it
 * (`**…**` around a mention); an element's `content` is text that may hold placeholders.
 */
import { INLINE_PLACEHOLDER, inlinePlaceholder } from '../placeholders.js';

export type InlineNode =
  /** Text shown as typed; no later pattern sees it. */
  | { kind: 'text'; text: string }
  /** Markup built by the renderer itself (entities, math). */
  | { kind: 'html'; html: string }
  | { kind: 'code'; text: string }
  | { kind: 'break' }
  /**
   * An element. `content` is its text, with placeholders for nested nodes, unless `literal`:
   * then it is shown exactly as given (names from the realm, not from the message).
   */
  | { kind: 'element'; tag: string; attrs: Record<string, string>; content: string; literal?: boolean };

interface Entry {
  node: InlineNode;
  /** The source text the node replaced, for putting it back where a node cannot go (a URL). */
  source: string;
}

/** Nodes by placeholder, for one message. */
export class InlineStash {
  private readonly entries: Entry[] = [];

  /** Parks a node and returns its placeholder. */
  add(node: InlineNode, source: string): string {
    this.entries.push({ node, source });
    return inlinePlaceholder(this.entries.length - 1);
  }

  node(index: number): InlineNode {
    return this.entries[index]!.node;
  }

  /** The text with every placeholder replaced by the source it stands for. */
  toSource(text: string): string {
    return text.replace(INLINE_PLACEHOLDER, (_, n: string) => this.toSource(this.entries[Number(n)]!.source));
  }
}

/** Splits text into plain runs and placeholders, calling back for each. */
export function eachPart(text: string, onText: (text: string) => void, onNode: (index: number) => void): void {
  let last = 0;
  for (const match of text.matchAll(INLINE_PLACEHOLDER)) {
    if (match.index > last) onText(text.slice(last, match.index));
    onNode(Number(match[1]));
    last = match.index + match[0].length;
  }
  if (last < text.length) onText(text.slice(last));
}
