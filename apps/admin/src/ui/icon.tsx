/** 24×24 stroke paths of the app's icons, drawn inline (nothing fetched). */
const PATHS = {
  logo: 'M4 5h16v14H4z M4 9h16 M9 9v10',
  content: 'M4 4h10l6 6v10H4z M14 4v6h6',
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M2 21c0-4 3-6 7-6s7 2 7 6 M17 11a3 3 0 1 0 0-6 M22 21c0-3-2-5-5-5.5',
  roles: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  permissions: 'M6 11V8a6 6 0 0 1 12 0v3 M5 11h14v10H5z M12 15v2',
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M4 21c0-4.5 3.5-7 8-7s8 2.5 8 7',
} as const;

export type IconName = keyof typeof PATHS;

/** An icon beside a text label: decorative, so hidden from screen readers (the label says it). */
export function Icon({ name }: { name: IconName }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}
