import { useMemo, useState } from 'preact/hooks';
import type { Collection } from '../../data/collections';
import { Field, Select, fieldId } from '../../ui/field';
import { Alert } from '../../ui/page';
import { createRelation, junctionKeys, type NewRelation } from './create-relation';
import { keyFieldsFor, keyTypeOf } from './field-types';

type Kind = NewRelation['kind'];
const NEW = '+new';
const KINDS: [Kind, string][] = [
  ['m2o', 'Many-to-one (this item holds one related item)'],
  ['o2m', 'One-to-many (this item lists items that point to it)'],
  ['m2m', 'Many-to-many (through a new junction collection)'],
  ['m2a', 'Many-to-any (items of several collections, through a new junction collection)'],
];

/** Add a relation of any kind to `collection`; what the API will be asked is said before it is. */
export function AddRelationForm({
  collection: c,
  collections,
  onAdded,
}: {
  collection: Collection;
  collections: Collection[];
  onAdded: (notice: string) => void;
}) {
  const ids = useMemo(
    () => ({
      related: fieldId('rel-related'),
      field: fieldId('rel-field'),
      newField: fieldId('rel-new-field'),
      alias: fieldId('rel-alias'),
      child: fieldId('rel-child'),
      key: fieldId('rel-key'),
      newKey: fieldId('rel-new-key'),
      deselect: fieldId('rel-deselect'),
      junction: fieldId('rel-junction'),
    }),
    [],
  );
  const [kind, setKind] = useState<Kind>('m2o');
  const [f, setF] = useState({ related: '', field: NEW, newField: '', alias: '', child: '', key: NEW, newKey: '', deselect: 'nullify', junction: '' });
  const [allowed, setAllowed] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: { currentTarget: { value: string } }) => setF({ ...f, [k]: e.currentTarget.value });
  const others = collections.map((x) => ({ value: x.collection, label: x.collection }));
  const pick = [{ value: '', label: 'Choose a collection' }, ...others];
  const related = collections.find((x) => x.collection === f.related);
  const child = collections.find((x) => x.collection === f.child);
  const junction =
    f.junction || (kind === 'm2a' ? (f.alias.trim() ? `${c.collection}_${f.alias.trim()}` : '') : related ? `${c.collection}_${related.collection}` : '');
  const [mine, theirs] = related ? junctionKeys(c.collection, related.collection) : ['', ''];

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const r: NewRelation =
      kind === 'm2o'
        ? { kind, related: f.related, createField: f.field === NEW, field: f.field === NEW ? f.newField.trim() : f.field }
        : kind === 'o2m'
          ? {
              kind,
              alias: f.alias.trim(),
              child: f.child,
              createKey: f.key === NEW,
              key: f.key === NEW ? f.newKey.trim() : f.key,
              deselect: f.deselect as 'nullify' | 'delete',
            }
          : kind === 'm2a'
            ? { kind, alias: f.alias.trim(), allowed, junction }
            : { kind, alias: f.alias.trim(), related: f.related, junction };
    setBusy(true);
    try {
      onAdded(await createRelation(c, r, collections));
      setF({ ...f, newField: '', alias: '', newKey: '', junction: '' });
      setAllowed([]);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="narrow" onSubmit={submit} noValidate aria-labelledby="add-relation-h">
      <h2 id="add-relation-h">Add a relation</h2>
      {error && <Alert>{error}</Alert>}
      <fieldset>
        <legend>Kind of relation</legend>
        <div class="checks">
          {KINDS.map(([k, label]) => (
            <label key={k}>
              <input type="radio" name="relation-kind" checked={kind === k} onChange={() => setKind(k)} /> {label}
            </label>
          ))}
        </div>
      </fieldset>
      {(kind === 'm2o' || kind === 'm2m') && <Select id={ids.related} label="Related collection" value={f.related} options={pick} onChange={set('related')} />}
      {kind === 'm2o' && (
        <>
          <Select
            id={ids.field}
            label={`Field of ${c.collection} that holds the key`}
            value={f.field}
            options={[
              { value: NEW, label: `A new field (${related ? keyTypeOf(related) : 'the related key’s type'})` },
              ...keyFieldsFor(c, related).map((x) => ({ value: x.field, label: `${x.field} (${x.type})` })),
            ]}
            onChange={set('field')}
          />
          {f.field === NEW && <Field id={ids.newField} label="New field name" value={f.newField} onInput={set('newField')} />}
        </>
      )}
      {kind !== 'm2o' && (
        <Field
          id={ids.alias}
          label={`Alias field on ${c.collection}`}
          hint="The name the list of related items gets (no column is added)."
          value={f.alias}
          onInput={set('alias')}
        />
      )}
      {kind === 'o2m' && (
        <>
          <Select id={ids.child} label="Child collection" value={f.child} options={pick} onChange={set('child')} />
          <Select
            id={ids.key}
            label={`Field of ${child?.collection ?? 'the child'} that holds the key of ${c.collection}`}
            value={f.key}
            options={[
              { value: NEW, label: `A new field (${keyTypeOf(c)})` },
              ...(child ? keyFieldsFor(child, c).map((x) => ({ value: x.field, label: `${x.field} (${x.type})` })) : []),
            ]}
            onChange={set('key')}
          />
          {f.key === NEW && <Field id={ids.newKey} label="New key field name" value={f.newKey} onInput={set('newKey')} />}
          <Select
            id={ids.deselect}
            label="When a child is unlinked"
            value={f.deselect}
            options={[
              { value: 'nullify', label: 'Keep it, with its key emptied' },
              { value: 'delete', label: 'Delete it' },
            ]}
            onChange={set('deselect')}
          />
        </>
      )}
      {kind === 'm2m' && (
        <>
          <Field id={ids.junction} label="Junction collection" value={junction} onInput={set('junction')} />
          <p class="hint" role="note">
            {related
              ? `This creates the collection ${junction} with the fields ${mine} and ${theirs}, then its relation to ${c.collection} and its relation to ${related.collection}, in that order. Unlinking an item deletes its junction row.`
              : 'Choose the related collection: a junction collection is created with a key field for each side, then both relations.'}
          </p>
        </>
      )}
      {kind === 'm2a' && (
        <>
          <fieldset>
            <legend>Collections the items may come from</legend>
            <div class="checks">
              {collections.map((x) => (
                <label key={x.collection}>
                  <input
                    type="checkbox"
                    checked={allowed.includes(x.collection)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setAllowed((a) => (on ? [...a, x.collection] : a.filter((y) => y !== x.collection)));
                    }}
                  />{' '}
                  {x.collection}
                </label>
              ))}
            </div>
          </fieldset>
          <Field id={ids.junction} label="Junction collection" value={junction} onInput={set('junction')} />
          <p class="hint" role="note">
            {`This creates the collection ${junction || '(the junction)'} with the fields ${c.collection}_id, item and collection, then its relation naming the allowed collections and its relation to ${c.collection}. Each junction row names its item's collection; unlinking an item deletes its junction row.`}
          </p>
        </>
      )}
      <button type="submit" disabled={busy}>
        Add relation
      </button>
    </form>
  );
}
