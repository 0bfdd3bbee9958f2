import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';

/** Load data for a page: the value, the error (an ApiError), and reload(). Re-runs when deps change. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): { value?: T; error?: ApiError; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ value?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => live && setState({ value, loading: false }),
      (e: unknown) => live && setState({ error: e instanceof ApiError ? e : new ApiError(String(e), 'UNKNOWN', 0), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}
