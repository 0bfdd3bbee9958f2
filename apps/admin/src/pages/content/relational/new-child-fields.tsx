import { useState } from 'preact/hooks';
import type { Collection, CollectionField } from '../../../data/collections';
import { inputKind, parseInput } from '../values';

type Item = Record<string, unknown>;

/**
 * The fields of a new related item, typed inline in the item's form (no form of its own: forms do not nest);
 * "Add" hands the values over, Enter in a field does the same.
 */
export function NewChildFields(p: { idPrefix: string; target: Collection; skip: string[]; what: string; onAdd: (data: Item) => void; onCancel: () => void }) {
  const fields = p.target.fields.filter(
    (f) => !p.skip.includes(f.field) && !(f.field === p.target.primary_key && f.schema?.has_auto_increment) && inputKind(f.type) !== 'checkbox',
  );
  const [values, setValues] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string>();
  const add = () => {
    const data: Item = {};
    for (const f of fields) {
      const r = parseInput(f as CollectionField, values[f.field] ?? '');
      if (r.problem) return setProblem(`${f.field}: ${r.problem}`);
      if (r.value !== null) data[f.field] = r.value;
    }
    p.onAdd(data);
    setValues({});
    setProblem(undefined);
  };
  return (
    <fieldset class="new-child">
      <legend>{p.what}</legend>
      {fields.map((f) => (
        <div class="field" key={f.field}>
          <label for={`${p.idPrefix}-${f.field}`}>
            {f.field} <span class="hint">({f.type})</span>
          </label>
          <input
            id={`${p.idPrefix}-${f.field}`}
            value={values[f.field] ?? ''}
            onInput={(e) => {
              const v = e.currentTarget.value;
              setValues((vs) => ({ ...vs, [f.field]: v }));
            }}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              add();
            }}
          />
        </div>
      ))}
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <button type="button" onClick={add}>
        Add
      </button>{' '}
      <button type="button" class="secondary" onClick={p.onCancel}>
        Cancel
      </button>
    </fieldset>
  );
}

/** "Create a new … item in …", which opens the fields of a new related item; `onAdd` gets the values typed. */
export function NewChildToggle(p: { idPrefix: string; target: Collection; skip: string[]; field: string; onAdd: (data: Item) => void }) {
  const [adding, setAdding] = useState(false);
  return adding ? (
    <NewChildFields
      idPrefix={p.idPrefix}
      target={p.target}
      skip={p.skip}
      what={`New ${p.target.collection} item for ${p.field}`}
      onAdd={(data) => {
        p.onAdd(data);
        setAdding(false);
      }}
      onCancel={() => setAdding(false)}
    />
  ) : (
    <button type="button" class="secondary" onClick={() => setAdding(true)}>
      Create a new {p.target.collection} item in {p.field}
    </button>
  );
}
