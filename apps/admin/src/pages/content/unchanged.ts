import { same } from './revision-diff';

/**
 * A form value that means the stored one: equal, an unticked box for no value, or a date-time the input shows to
 * the minute (`2026-01-02T10:30` for `2026-01-02T10:30:00.000Z`) — so an untouched field is never sent.
 */
export function unchanged(typed: unknown, stored: unknown): boolean {
  if (same(typed, stored)) return true;
  if (typed === false && stored == null) return true;
  return typeof typed === 'string' && typeof stored === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(typed) && stored.slice(0, 16) === typed;
}
