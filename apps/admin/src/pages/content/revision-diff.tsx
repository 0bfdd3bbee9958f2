import { Table } from '../../ui/table';
import { showValue } from './values';

/** Side by side: each field's value before and after, changed rows highlighted and marked in words. */
export function RevisionDiff({ caption, before, after }: { caption: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }) {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return (
    <Table class="diff" caption={caption} columns={['Field', 'Before', 'After']}>
      {fields.map((f) => {
        const changed = JSON.stringify(before?.[f]) !== JSON.stringify(after?.[f]);
        return (
          <tr key={f} class={changed ? 'changed' : undefined} data-changed={changed ? 'true' : undefined}>
            <th scope="row">
              {f}
              {changed && <span class="tag"> (changed)</span>}
            </th>
            <td>{before ? showValue(before[f]) : '—'}</td>
            <td>{after ? showValue(after[f]) : '— (deleted)'}</td>
          </tr>
        );
      })}
    </Table>
  );
}
