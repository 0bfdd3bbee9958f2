import { navigate, withQuery } from '../../router/router';

/** Which fields the items table shows (in the URL as `cols`): every field can be chosen, none is hidden silently. */
export function ColumnPicker({ fields, columns }: { fields: string[]; columns: string[] }) {
  const toggle = (f: string, on: boolean) => {
    const next = fields.filter((x) => (x === f ? on : columns.includes(x)));
    navigate(withQuery({ cols: next.join(',') || undefined }));
  };
  return (
    <details class="columns">
      <summary>
        Columns ({columns.length} of {fields.length} shown)
      </summary>
      <fieldset>
        <legend>Columns to show</legend>
        <div class="checks">
          {fields.map((f) => (
            <label key={f}>
              <input type="checkbox" checked={columns.includes(f)} onChange={(e) => toggle(f, e.currentTarget.checked)} /> {f}
            </label>
          ))}
        </div>
      </fieldset>
    </details>
  );
}
