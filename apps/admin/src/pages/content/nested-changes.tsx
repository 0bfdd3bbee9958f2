import { useState } from 'preact/hooks';
import { api, json, ok, type Revision } from '../../api/client';
import { Link } from '../../router/link';
import { useAsync } from '../../ui/use-async';
import { showValue } from './values';

type Child = Revision & { activity?: { action?: string } };
const DONE: Record<string, string> = { create: 'created', update: 'updated', delete: 'deleted' };

/** The revisions written under these (their `parent`), grouped by parent, oldest first. */
async function childrenOf(ids: number[]): Promise<Map<number, Child[]>> {
  const out = new Map<number, Child[]>();
  if (ids.length === 0) return out;
  const query = { filter: json({ parent: { _in: ids } }), fields: 'id,collection,item,parent,data,delta,activity.action', sort: 'id', limit: -1 };
  for (const r of (await ok(api.GET('/revisions', { params: { query } }))).data as Child[]) {
    const p = r.parent as number;
    out.set(p, [...(out.get(p) ?? []), r]);
  }
  return out;
}

/**
 * The nested children of a page of revisions, in one request. After a save on this page (`tick` > 0) the children's
 * revisions may land a moment after their carrier's: read again a few times (bounded) until they stop changing.
 */
export function useNestedChildren(ids: number[], tick: number) {
  return useAsync(async () => {
    let last = await childrenOf(ids);
    for (let i = 0; tick > 0 && i < 6; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const next = await childrenOf(ids);
      const count = (m: Map<number, Child[]>) => [...m.values()].reduce((n, l) => n + l.length, 0);
      if (count(next) === count(last) && count(next) > 0) return next;
      last = next;
    }
    return last;
  }, [ids.join(','), tick]);
}

/** A child's change in a few words: the values it wrote, or — deleted — the values it had (fields in name order). */
function summary(c: Child): string {
  const values = (c.activity?.action === 'delete' ? c.data : c.delta) as Record<string, unknown> | null;
  const parts = Object.keys(values ?? {})
    .sort()
    .map((k) => `${k}: ${showValue(values![k])}`);
  return parts.length ? (c.activity?.action === 'delete' ? `had ${parts.join(', ')}` : parts.join(', ')) : '';
}

/** One level of nested changes; a child's own children are read when its entry is opened. */
function Level({ rows }: { rows: Child[] }) {
  return (
    <ul class="nested">
      {rows.map((c) => (
        <ChildEntry key={c.id} c={c} />
      ))}
    </ul>
  );
}

function ChildEntry({ c }: { c: Child }) {
  const [open, setOpen] = useState(false);
  const below = useAsync(async () => (open ? ((await childrenOf([c.id as number])).get(c.id as number) ?? []) : undefined), [open, c.id]);
  const text = summary(c);
  return (
    <li>
      <Link to={`/content/${c.collection}/${encodeURIComponent(String(c.item))}`}>{`${c.collection} ${c.item}`}</Link>{' '}
      {DONE[c.activity?.action ?? ''] ?? 'changed'}
      {text && <span class="text">: {text}</span>}{' '}
      <button type="button" class="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} what was written under {c.collection} {c.item}
      </button>
      {open && below.value && (below.value.length ? <Level rows={below.value} /> : <p class="hint">Nothing was written under it.</p>)}
    </li>
  );
}

/** A revision's nested children as part of its history entry: "with N nested changes", expandable. */
export function NestedChanges({ rows, revision }: { rows?: Child[]; revision: string }) {
  if (!rows?.length) return null;
  return (
    <details class="nested-changes">
      <summary>
        {revision}: with {rows.length} nested {rows.length === 1 ? 'change' : 'changes'}
      </summary>
      <Level rows={rows} />
    </details>
  );
}
