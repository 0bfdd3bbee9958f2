import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A page: its heading receives focus when the page opens (a screen reader announces where the user landed,
 * and Tab continues from the top of the new content), and the document title follows it.
 */
export function Page({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Vellum`;
    h1.current?.focus();
  }, [title]);
  return (
    <section class="page">
      <header class="page-head">
        <h1 tabIndex={-1} ref={h1}>
          {title}
        </h1>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A message the user must notice (errors after submit): announced, and focusable so submit can move focus here. */
export function Alert({ kind = 'error', children, id }: { kind?: 'error' | 'success' | 'info'; children: ComponentChildren; id?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [children]);
  return (
    <div id={id} ref={ref} tabIndex={-1} class={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** Text for an empty list: says what is missing and why it may be (a role that sees nothing). */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}
