import { useState } from 'preact/hooks';
import type { Key } from './alias-changes';

/** An item that may be linked: its key and the label the collection's display template gives it. */
export interface Linkable {
  key: Key;
  label: string;
}

/** "Link an existing <collection> item": a select of the items not linked yet, and the button that links the chosen one. */
export function LinkPicker(p: { id: string; collection: string; field: string; free: Linkable[]; onLink(item: Linkable): void }) {
  const [pick, setPick] = useState('');
  return (
    <div class="actions">
      <label for={`${p.id}-pick`}>Link an existing {p.collection} item</label>
      <select id={`${p.id}-pick`} value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
        <option value="">Choose…</option>
        {p.free.map((c) => (
          <option key={String(c.key)} value={String(c.key)}>
            {c.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        class="secondary"
        disabled={!pick}
        onClick={() => {
          const c = p.free.find((x) => String(x.key) === pick);
          if (c) p.onLink(c);
          setPick('');
        }}
      >
        Link to {p.field}
      </button>
    </div>
  );
}
