import { navigate, withQuery } from '../router/router';

/**
 * Previous / next over a list, the page number in the URL (?page=): with the API's count (meta.filter_count), or
 * — for lists too large to count on every page — with `hasMore` (one row more than the page was asked for).
 */
export function Pager({ page, limit, count, hasMore, label }: { page: number; limit: number; count?: number; hasMore?: boolean; label: string }) {
  const pages = count === undefined ? undefined : Math.max(1, Math.ceil(count / limit));
  const last = pages !== undefined ? page >= pages : !hasMore;
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => navigate(withQuery({ page: page - 1 }))}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {page}
        {pages !== undefined ? ` of ${pages}` : ''}
        {count !== undefined ? ` (${count} in all)` : ''}
      </span>
      <button type="button" class="secondary" disabled={last} onClick={() => navigate(withQuery({ page: page + 1 }))}>
        Next page
      </button>
    </nav>
  );
}

export const pageOf = (q: URLSearchParams) => Math.max(1, Number(q.get('page')) || 1);
