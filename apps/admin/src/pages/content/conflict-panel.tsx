import { useState } from 'preact/hooks';
import { showValue } from './values';
import type { Conflict } from './save-item';

type Item = Record<string, unknown>;

/**
 * Someone else saved first: for each field both changed, their value and this user's side by side and a choice
 * (theirs kept unless changed); the fields only this user changed are saved as typed.
 */
export function ConflictPanel({ conflict, onResolve, onDiscard }: { conflict: Conflict; onResolve: (values: Item) => void; onDiscard: () => void }) {
  const [keepMine, setKeepMine] = useState(new Set<string>());
  const choose = (f: string, mine: boolean) =>
    setKeepMine((s) => {
      const next = new Set(s);
      if (mine) next.add(f);
      else next.delete(f);
      return next;
    });
  const resolved = () => Object.fromEntries(Object.entries(conflict.mine).filter(([k]) => !conflict.contested.includes(k) || keepMine.has(k)));
  return (
    <div class="alert alert-error conflict" role="alert">
      <p>
        <strong>Someone saved this item after you opened it.</strong> Your other changes are kept; choose the value to keep where you both changed a field.
      </p>
      {conflict.contested.map((f) => (
        <fieldset key={f}>
          <legend>{f}</legend>
          <label>
            <input type="radio" name={`conflict-${f}`} checked={!keepMine.has(f)} onChange={() => choose(f, false)} /> Theirs (saved):{' '}
            <span class="text">{showValue(conflict.theirs[f])}</span>
          </label>
          <label>
            <input type="radio" name={`conflict-${f}`} checked={keepMine.has(f)} onChange={() => choose(f, true)} /> Yours:{' '}
            <span class="text">{showValue(conflict.mine[f])}</span>
          </label>
        </fieldset>
      ))}
      <button type="button" onClick={() => onResolve(resolved())}>
        Save with these choices
      </button>{' '}
      <button type="button" class="secondary" onClick={onDiscard}>
        Discard my changes
      </button>
    </div>
  );
}
