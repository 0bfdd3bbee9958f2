import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';

type State<T> = { value?: T; error?: ApiError; loading: boolean; for?: unknown[] };
const same = (a: unknown[] | undefined, b: unknown[]) => !!a && a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/**
 * Load data for a page: the value, the error (an ApiError), and reload(). Re-runs when deps change. `loading` is
 * true from the very render whose deps changed (the value shown is the old one until the new one arrives), so a
 * form can refuse input that the arriving value would overwrite.
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): { value?: T; error?: ApiError; loading: boolean; reload: () => void } {
  const [state, setState] = useState<State<T>>({ loading: true });
  const [tick, setTick] = useState(0);
  const current = [...deps, tick];
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => live && setState({ value, loading: false, for: current }),
      (e: unknown) => live && setState({ error: e instanceof ApiError ? e : new ApiError(String(e), 'UNKNOWN', 0), loading: false, for: current }),
    );
    return () => {
      live = false;
    };
  }, current);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { value: state.value, error: state.error, loading: state.loading || !same(state.for, current), reload };
}
