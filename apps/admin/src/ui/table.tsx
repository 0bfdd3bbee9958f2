import type { ComponentChildren } from 'preact';

/**
 * A table of the app: its caption (read out, or only to screen readers with `hideCaption`), one header cell per
 * column, and the rows the page draws.
 */
export function Table(p: { caption: ComponentChildren; hideCaption?: boolean; columns: readonly string[]; class?: string; children: ComponentChildren }) {
  return (
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
  );
}
