import { api, json, ok } from '../../api/client';
import type { components } from '../../generated/api';
import { useWho } from '../../data/user-names';
import { Link } from '../../router/link';
import { Table } from '../../ui/table';
import { useAsync } from '../../ui/use-async';

type Activity = components['schemas']['Activity'];

/**
 * Scheduled promotes that failed (activity `promote_failed`, issue 36): activity without a revision, so not in the
 * revisions list. The newest ten of the page's collection and item, with the reason; nothing when there are none
 * or the role may not read activity.
 */
export function FailedPromotes(p: { collection: string; item: string }) {
  const rows = useAsync(async () => {
    const and: Record<string, unknown>[] = [{ action: { _eq: 'promote_failed' } }];
    if (p.collection) and.push({ collection: { _eq: p.collection } });
    if (p.item) and.push({ item: { _eq: p.item } });
    const query = { fields: 'id,timestamp,user,collection,item,comment', sort: '-id', limit: 10, filter: json({ _and: and }) };
    return (await ok(api.GET('/activity', { params: { query } }))).data as Activity[];
  }, [p.collection, p.item]);
  const who = useWho((rows.value ?? []).map((r) => r.user));
  if (!rows.value?.length) return null;
  return (
    <section aria-labelledby="failed-promotes-h">
      <h2 id="failed-promotes-h">Scheduled promotes that failed</h2>
      <Table caption="Scheduled promotes that failed, newest first" hideCaption columns={['When', 'Action', 'Collection', 'Item', 'Scheduled by', 'Reason']}>
        {rows.value.map((r) => (
          <tr key={r.id}>
            <td>{r.timestamp ? new Date(r.timestamp).toLocaleString() : '—'}</td>
            <td>scheduled promote failed</td>
            <td>{r.collection}</td>
            <td>
              <Link to={`/content/${r.collection}/${encodeURIComponent(String(r.item))}`}>{r.item}</Link>
            </td>
            <td>{who(r.user)}</td>
            <td>{r.comment}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
