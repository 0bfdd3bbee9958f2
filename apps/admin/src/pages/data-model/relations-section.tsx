import type { RelationalField } from '../../data/relations';
import { ConfirmButton } from '../../ui/confirm-button';
import { Empty } from '../../ui/page';
import { Table } from '../../ui/table';
import { removeRelation } from './create-relation';
import { describeRelation, whatRemovalLoses } from './describe-relation';

/** The collection's relational fields in words; remove a relation (a many-to-one keeps its column and values). */
export function RelationsSection(p: {
  collection: string;
  relational: RelationalField[];
  onChanged: (notice: string) => void;
  onError: (message: string) => void;
}) {
  const remove = async (r: RelationalField) => {
    try {
      await removeRelation(r);
      p.onChanged(`The relation of ${r.field} was removed.`);
    } catch (err) {
      p.onError((err as Error).message);
    }
  };
  return (
    <section aria-labelledby="relations-h">
      <h2 id="relations-h">Relations</h2>
      {p.relational.length === 0 ? (
        <Empty>{p.collection} has no relation yet.</Empty>
      ) : (
        <Table caption={`Relations of ${p.collection}`} hideCaption columns={['Field', 'Relation', 'Actions']}>
          {p.relational.map((r) => (
            <tr key={`${r.kind}-${r.field}`}>
              <th scope="row">{r.field}</th>
              <td>{describeRelation(r)}</td>
              <td>
                <ConfirmButton
                  label="Remove"
                  ariaLabel={`Remove the relation of ${r.field}`}
                  question={
                    r.kind === 'm2o'
                      ? `Remove the relation of ${r.field} to ${r.related}? The field and its values stay; they are no longer checked against ${r.related}.`
                      : whatRemovalLoses(r)
                  }
                  confirmLabel={`Yes, remove the relation of ${r.field}`}
                  onConfirm={() => remove(r)}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
