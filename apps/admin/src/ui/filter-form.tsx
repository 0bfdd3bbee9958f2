import type { ComponentChildren } from 'preact';
import { navigate, withQuery } from '../router/router';

/** The filters of a list page: the fields it is given, applied to the URL (back at page 1) with "Apply". */
export function FilterForm({ label, draft, children }: { label: string; draft: Record<string, string>; children: ComponentChildren }) {
  return (
    <form
      class="toolbar"
      role="search"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        navigate(withQuery({ ...draft, page: undefined }));
      }}
    >
      {children}
      <button type="submit">Apply</button>
    </form>
  );
}
