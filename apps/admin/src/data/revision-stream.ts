import { useEffect, useRef } from 'preact/hooks';

/**
 * Calls `onRevision` when a revision matching `filter` (the revisions query language; `{}` = any) is recorded, through
 * `GET /revisions/stream` (server-sent events; the session cookie goes with it, and EventSource resumes after a cut
 * with Last-Event-ID, so a revision recorded meanwhile still counts). Revisions arriving together call it once, at
 * most every `quietMs`. `null`: no stream. The stream ends by itself when the session does (`auth_expired`).
 */
export function useRevisionStream(filter: Record<string, unknown> | null, onRevision: () => void, quietMs = 250): void {
  const latest = useRef(onRevision);
  latest.current = onRevision;
  const key = filter === null ? null : JSON.stringify(filter);
  useEffect(() => {
    if (key === null || typeof EventSource === 'undefined') return;
    const params = new URLSearchParams({ fields: 'id' });
    if (key !== '{}') params.set('filter', key);
    const source = new EventSource(`/revisions/stream?${params}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.onmessage = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        latest.current();
      }, quietMs);
    };
    source.addEventListener('auth_expired', () => source.close());
    return () => {
      source.close();
      clearTimeout(timer);
    };
  }, [key, quietMs]);
}
