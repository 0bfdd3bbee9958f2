import type { JSX } from 'preact';

let next = 0;
/** A stable id for a label/input/error triple. */
export const fieldId = (name: string) => `f-${name}-${++next}`;

export interface FieldProps extends Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'label'> {
  id: string;
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled input; its hint and error are tied to it (aria-describedby), and an error marks it invalid. */
export function Field({ id, label, error, hint, ...input }: FieldProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input id={id} name={id} aria-invalid={error ? 'true' : undefined} aria-describedby={described} {...input} />
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export interface SelectProps extends Omit<JSX.SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'label'> {
  id: string;
  label: string;
  options: { value: string; label: string }[];
  error?: string;
}

export function Select({ id, label, options, error, ...select }: SelectProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={id} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-error` : undefined} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
