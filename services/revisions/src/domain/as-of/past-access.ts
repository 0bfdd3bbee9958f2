import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import { readable, visibilityOf, type AccessRules } from '../visibility';

type Item = Record<string, unknown>;

/**
 * What the caller may read of a collection's past states: today's rules (a field hidden from the role now is hidden
 * in every past state too). A collection the role cannot read is 403, as for the live items.
 */
export class PastAccess {
  readonly allowed: '*' | Set<string>;

  constructor(acc: Accountability | undefined, rules: AccessRules, collection: string) {
    const vis = visibilityOf(acc, rules);
    const fields = vis.all ? '*' : vis.fields[collection];
    if (fields === undefined) throw errors.forbidden();
    this.allowed = fields === '*' ? '*' : new Set(fields);
  }

  /** A field named in `fields`, `filter` or `sort`: one the role cannot read is 403 (as for the live items). */
  readonly check = (field: string): void => {
    if (field.includes('.')) throw errors.invalidQuery(`Relational paths ("${field}") are not supported on past states.`);
    if (this.allowed !== '*' && !this.allowed.has(field)) throw errors.forbidden();
  };

  can(field: string): boolean {
    return this.allowed === '*' || this.allowed.has(field);
  }

  /** A past state reduced to the readable fields. */
  reduce(state: Item): Item {
    return readable(state, this.allowed) as Item;
  }

  /** `fields` of the query language (top-level names or `*`) applied to a reduced state. */
  project(state: Item, fields: string[]): Item {
    if (fields.includes('*')) return state;
    for (const f of fields) this.check(f);
    const out: Item = {};
    for (const f of fields) if (Object.hasOwn(state, f)) out[f] = state[f];
    return out;
  }
}
