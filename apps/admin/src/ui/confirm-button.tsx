import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A destructive action asked twice: the button, then the question with "yes" and "keep" (focus goes to "yes";
 * "keep" returns to the first button's state).
 */
export function ConfirmButton(p: {
  label: string;
  /** The button's accessible name when its label alone is ambiguous ("Remove" in a table row). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  class?: string;
}) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" class={p.class ?? 'danger'} aria-label={p.ariaLabel} onClick={() => setAsking(true)}>
        {p.label}
      </button>
    );
  }
  return (
    <span class="confirm">
      {p.question}{' '}
      <button
        type="button"
        class="danger"
        ref={yes}
        onClick={async () => {
          await p.onConfirm();
          setAsking(false);
        }}
      >
        {p.confirmLabel}
      </button>{' '}
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
