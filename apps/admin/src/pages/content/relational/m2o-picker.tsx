import { useState } from 'preact/hooks';
import type { Collection } from '../../../data/collections';
import { useLabelledItems } from './labelled-items';

/**
 * A many-to-one field as a choice among the related items, by their labels; with more items than a list can show,
 * a search narrows it (the chosen one is always offered).
 */
export function M2oPicker(p: {
  id: string;
  field: string;
  related: Collection;
  value: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  onChange: (key: string) => void;
}) {
  const [search, setSearch] = useState('');
  const items = useLabelledItems(p.related, { search: search || undefined }, []);
  const current = useLabelledItems(p.value ? p.related : undefined, { filter: { [p.related.primary_key]: { _eq: p.value } }, limit: 1 }, []);
  const list = items.value?.list ?? [];
  const chosen = p.value !== '' && !list.some((i) => String(i.key) === p.value) ? (current.value?.list ?? []) : [];
  return (
    <>
      <label for={p.id}>
        {p.field} <span class="hint">(one item of {p.related.collection})</span>
      </label>
      {(items.value?.more || search) && (
        <input
          type="search"
          aria-label={`Search ${p.related.collection} for ${p.field}`}
          value={search}
          disabled={p.disabled}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      )}
      <select
        id={p.id}
        value={p.value}
        disabled={p.disabled}
        aria-invalid={p.invalid ? 'true' : undefined}
        aria-describedby={p.describedBy}
        onChange={(e) => p.onChange(e.currentTarget.value)}
      >
        <option value="">— none —</option>
        {[...chosen, ...list].map((i) => (
          <option key={String(i.key)} value={String(i.key)}>
            {i.label}
          </option>
        ))}
      </select>
      {items.error && <p class="error">{items.error.message}</p>}
    </>
  );
}
