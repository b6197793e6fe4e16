/**
 * The reference's highlight_html_differences: the new HTML with inserted words wrapped in
 * `<span class="highlight_text_inserted">` and removed words in
 * `<span class="highlight_text_deleted">`, all inside a `<div>`. The diff is word by word
 * (tags and words are tokens; removed tags are dropped, inserted ones kept).
 */

/** Tags, and words with the whitespace that follows them. */
const tokenize = (html: string) => html.match(/<[^>]*>|[^<\s]+\s*|\s+/g) ?? [];

const isTag = (token: string) => token.startsWith('<');

/** Longest common subsequence table over tokens, for inputs of message size. */
function commonSuffixLengths(a: readonly string[], b: readonly string[]): Uint32Array[] {
  const table = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  return table;
}

export function htmlDiff(before: string, after: string): string {
  const a = tokenize(before);
  const b = tokenize(after);
  const table = commonSuffixLengths(a, b);
  let out = '';
  let run: { kind: 'inserted' | 'deleted'; text: string } | null = null;
  const flush = () => {
    if (run && run.text.trim() !== '') out += `<span class="highlight_text_${run.kind}">${run.text}</span>`;
    else if (run) out += run.text;
    run = null;
  };
  const word = (kind: 'inserted' | 'deleted', token: string) => {
    if (run?.kind !== kind) flush();
    run ??= { kind, text: '' };
    run.text += token;
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      out += b[j];
      i++;
      j++;
    } else if (j < b.length && (i === a.length || table[i]![j + 1]! >= table[i + 1]![j]!)) {
      if (isTag(b[j]!)) {
        flush();
        out += b[j];
      } else word('inserted', b[j]!);
      j++;
    } else {
      if (!isTag(a[i]!)) word('deleted', a[i]!);
      i++;
    }
  }
  flush();
  return `<div>${out}</div>`;
}
