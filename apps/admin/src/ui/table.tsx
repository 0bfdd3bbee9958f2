import type { ComponentChildren } from 'preact';

/**
 * A table of the app: its caption (read out, or only to screen readers with `hideCaption`), one header cell per
 * column, and the rows the page draws.
 */
export function Table(p: { caption: ComponentChildren; hideCaption?: boolean; columns: readonly string[]; class?: string; children: ComponentChildren }) {
  return (
    <TableScroll>
      <table class={p.class}>
        <caption class={p.hideCaption ? 'sr-only' : undefined}>{p.caption}</caption>
        <thead>
          <tr>
            {p.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{p.children}</tbody>
      </table>
    </TableScroll>
  );
}

/**
 * A wide table scrolls inside this box, not the page (a phone); focusable so a keyboard can scroll it too, and
 * named by the table's caption.
 */
export function TableScroll({ children }: { children: ComponentChildren }) {
  return (
    <div class="table-scroll" tabIndex={0} role="group" aria-label="Table (scrolls sideways on a narrow screen)">
      {children}
    </div>
  );
}
