import type { Plan, Sql } from '@vellum/query';
import type { Visibility } from './visibility';

/**
 * Planned queries by (the caller's visibility, the request's query text): a list request repeated with the same
 * query by callers who see the same thing is not planned again. The visibility is the key's first half, by identity:
 * `visibilityOf` makes a new one whenever a role's rules change, so a change of permissions never meets an old plan
 * (the old entries go with the old visibility). Only query texts without a dynamic value (`$NOW`, `$CURRENT_USER`, …:
 * no `$`, plain or percent-encoded) are cached: everything else a plan holds follows from the text and the
 * visibility. At most `max` entries per visibility, the least recently used evicted.
 *
 * A cached plan's list and count statements are built once: the same statement object for every request, which
 * the data layer's StatementRunner names (prepares) and reads in array mode without work per request.
 */
export class PlanCache {
  private readonly byVisibility = new WeakMap<Visibility, Map<string, Plan>>();
  private kept = 0;

  constructor(private readonly max = 500) {}

  /** The cache key of a query text, or undefined when it must be planned each time. */
  static keyOf(kind: string, text: string): string | undefined {
    if (text.includes('$') || /%24/i.test(text)) return undefined;
    return `${kind}\u0000${text}`;
  }

  /** Plans kept since the start (an observable for tests and diagnostics). */
  get stored(): number {
    return this.kept;
  }

  get(vis: Visibility, key: string): Plan | undefined {
    const plans = this.byVisibility.get(vis);
    const plan = plans?.get(key);
    if (plan) {
      plans!.delete(key);
      plans!.set(key, plan);
    }
    return plan;
  }

  /** Keeps `plan` (its statements built once) and returns the kept one. */
  set(vis: Visibility, key: string, plan: Plan): Plan {
    let plans = this.byVisibility.get(vis);
    if (!plans) this.byVisibility.set(vis, (plans = new Map()));
    if (plans.size >= this.max) plans.delete(plans.keys().next().value!);
    const kept = this.keep(plan);
    plans.set(key, kept);
    this.kept++;
    return kept;
  }

  private keep(plan: Plan): Plan {
    let list: Sql | undefined;
    const counts: Partial<Record<'total' | 'filter', Sql>> = {};
    return {
      ...plan,
      list: () => (list ??= plan.list()),
      count: (which) => (counts[which] ??= plan.count(which)),
    };
  }
}
