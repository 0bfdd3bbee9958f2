import { navigate, withQuery } from '../../router/router';
import { Link } from '../../router/link';
import { TableScroll } from '../../ui/table';
import { showValue } from './values';

type Item = Record<string, unknown>;

/**
 * The items as a table: the chosen columns (click a header to sort), a checkbox per row to select it, and a
 * click anywhere on a row (not on a control) opens the item.
 */
export function ItemsTable(p: {
  collection: string;
  items: Item[];
  columns: string[];
  pk: string;
  sort: string;
  selected: Set<string>;
  onSelect: (keys: string[], on: boolean) => void;
}) {
  const { collection, pk, sort } = p;
  const sortState = (c: string) => (sort === c ? 'ascending' : sort === `-${c}` ? 'descending' : undefined);
  const keyOf = (item: Item) => String(item[pk]);
  const open = (item: Item) => navigate(`/content/${collection}/${encodeURIComponent(keyOf(item))}`);
  const all = p.items.length > 0 && p.items.every((i) => p.selected.has(keyOf(i)));
  return (
    <TableScroll>
      <table class="rows">
        <caption class="sr-only">
          Items of {collection}, sorted by {sort.replace(/^-/, '')}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="pick">
              <input
                type="checkbox"
                aria-label="Select every item on this page"
                checked={all}
                onChange={(e) => p.onSelect(p.items.map(keyOf), e.currentTarget.checked)}
              />
            </th>
            {p.columns.map((c) => (
              <th key={c} scope="col" aria-sort={sortState(c) ?? 'none'}>
                <button type="button" onClick={() => navigate(withQuery({ sort: sort === c ? `-${c}` : c, page: undefined }))}>
                  {c} {sortState(c) === 'ascending' ? '▲' : sortState(c) === 'descending' ? '▼' : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.items.map((item) => (
            <tr
              key={keyOf(item)}
              class="clickable"
              onClick={(e) => {
                if (!(e.target as HTMLElement).closest('a, button, input, label')) open(item);
              }}
            >
              <td class="pick">
                <input
                  type="checkbox"
                  aria-label={`Select item ${keyOf(item)}`}
                  checked={p.selected.has(keyOf(item))}
                  onChange={(e) => p.onSelect([keyOf(item)], e.currentTarget.checked)}
                />
              </td>
              {p.columns.map((c) => (
                <td key={c}>
                  {c === pk ? <Link to={`/content/${collection}/${encodeURIComponent(keyOf(item))}`}>{`Open ${keyOf(item)}`}</Link> : showValue(item[c])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
