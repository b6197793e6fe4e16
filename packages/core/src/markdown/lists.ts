/**
 * Adapts list nesting to the reference's dialect before CommonMark parsing: nesting goes by
 * 2-space steps, for numbered lists too (`1. a` then `  2. b` nests `b`), while CommonMark wants
 * a child indented to its parent's text. Item lines and their indented continuation lines are
 * re-indented to the column CommonMark expects. Lines inside code fences are left alone.
 */
import { FENCE_RE } from './fences.js';

const ITEM_RE = /^( *)([*+-]|\d+\.)( +)(.*)$/;

interface OpenItem {
  /** The item's indentation as typed. */
  typed: number;
  /** The column where its text starts after re-indenting. */
  content: number;
}

/** The lines with list indentation made CommonMark-compatible. */
export function prepareLists(lines: readonly string[]): string[] {
  const out: string[] = [];
  const fences: { fence: string; code: boolean }[] = [];
  let open: OpenItem[] = [];
  let afterBlank = true;

  for (const line of lines) {
    const fence = FENCE_RE.exec(line);
    if (fence) {
      // Same bookkeeping as the fence processor: a bare fence equal to the innermost closes it.
      const last = fences[fences.length - 1];
      if (!fence[2] && last?.fence === fence[1]) fences.pop();
      else fences.push({ fence: fence[1]!, code: !['quote', 'quoted'].includes(fence[2]?.toLowerCase() ?? '') });
      open = [];
      out.push(line);
      afterBlank = false;
      continue;
    }
    if (fences.some((f) => f.code)) {
      out.push(line);
      continue;
    }
    if (line === '') {
      out.push(line);
      afterBlank = true;
      continue;
    }

    const indent = line.length - line.trimStart().length;
    const item = ITEM_RE.exec(line);
    if (item && (open.length > 0 || indent < 4)) {
      const [, , marker, spacing, text] = item as unknown as [string, string, string, string, string];
      while (open.length > 0 && open[open.length - 1]!.typed + 2 > indent) open.pop();
      const parent = open[open.length - 1];
      const column = parent ? parent.content : indent;
      out.push(`${' '.repeat(column)}${marker}${spacing}${text}`);
      open.push({ typed: indent, content: column + marker.length + spacing.length });
    } else if (open.length > 0 && indent >= 2) {
      // An indented continuation belongs to the deepest item it is indented under.
      const owner = [...open].reverse().find((o) => o.typed + 2 <= indent);
      out.push(owner ? `${' '.repeat(owner.content + indent - owner.typed - 2)}${line.trimStart()}` : line);
    } else {
      if (afterBlank) open = [];
      out.push(line);
    }
    afterBlank = false;
  }
  return out;
}
