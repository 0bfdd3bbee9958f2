import type { ComponentChildren } from 'preact';
import { BASE, navigate } from './router';

/** An anchor that navigates inside the app (a real href: middle click, copy link and keyboard all work). */
export function Link({ to, children, class: cls, current }: { to: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a
      href={BASE + (to === '/' ? '' : to)}
      class={cls}
      aria-current={current ? 'page' : undefined}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
