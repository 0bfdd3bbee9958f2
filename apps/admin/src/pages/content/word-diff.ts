/** A piece of a text diff: kept, removed (only before) or added (only after). */
export interface DiffPart {
  kind: 'same' | 'del' | 'ins';
  text: string;
}

/** Above this many words on either side the diff is the whole text (the table is O(n·m)). */
const MAX_TOKENS = 3000;

/** Words and the spaces/line breaks between them, kept as their own tokens so line breaks survive. */
const tokens = (s: string) => s.split(/(\s+)/).filter((t) => t !== '');

/** The word-level difference of two texts (longest common subsequence), adjacent parts of a kind merged. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return merge([...(before ? [{ kind: 'del' as const, text: before }] : []), { kind: 'ins', text: after }]);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i++]! });
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push({ kind: 'del', text: a[i++]! });
    else out.push({ kind: 'ins', text: b[j++]! });
  }
  return merge(out);
}

function merge(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (last && last.kind === p.kind) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}
