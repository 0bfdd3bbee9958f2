import { Table } from '../../ui/table';
import { showValue } from './values';
import { wordDiff } from './word-diff';

/** Missing and null are the same "no value" (an older revision without a field added later is not a change). */
export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A changed text with its removed (before) or added (after) words marked; line breaks kept. */
function Marked({ before, after, side }: { before: string; after: string; side: 'del' | 'ins' }) {
  return (
    <span class="text">
      {wordDiff(before, after).map((p, i) =>
        p.kind === 'same' ? p.text : p.kind !== side ? null : side === 'del' ? <del key={i}>{p.text}</del> : <ins key={i}>{p.text}</ins>,
      )}
    </span>
  );
}

function Cell({ value, other, side }: { value: unknown; other: unknown; side: 'del' | 'ins' }) {
  if (typeof value === 'string' && typeof other === 'string' && value !== other)
    return <Marked before={side === 'del' ? value : other} after={side === 'del' ? other : value} side={side} />;
  return <span class="text">{showValue(value)}</span>;
}

/** Side by side: each field's value before and after, changed rows highlighted and marked in words, changed words marked. */
export function RevisionDiff({
  caption,
  before,
  after,
  afterLabel = 'After',
  beforeLabel = 'Before',
}: {
  caption: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  afterLabel?: string;
  beforeLabel?: string;
}) {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return (
    <Table class="diff" caption={caption} columns={['Field', beforeLabel, afterLabel]}>
      {fields.map((f) => {
        const changed = !same(before?.[f], after?.[f]);
        return (
          <tr key={f} class={changed ? 'changed' : undefined} data-changed={changed ? 'true' : undefined}>
            <th scope="row">
              {f}
              {changed && <span class="tag"> (changed)</span>}
            </th>
            <td>{before ? <Cell value={before[f]} other={after?.[f]} side="del" /> : '—'}</td>
            <td>{after ? <Cell value={after[f]} other={before?.[f]} side="ins" /> : '— (deleted)'}</td>
          </tr>
        );
      })}
    </Table>
  );
}
