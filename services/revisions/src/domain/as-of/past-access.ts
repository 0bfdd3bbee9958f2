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

  /**
   * The fields a list's query names — in `fields` (but `*`) and in its filter — checked before any state is read:
   * a field the role cannot read is refused also when no state would have been returned (an empty page, a time
   * before every item), as the live list refuses it whatever the rows.
   */
  checkNamed(fields: string[], filter: unknown): void {
    for (const f of fields) if (f !== '*') this.check(f);
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null || Array.isArray(node)) return; // its shape is the filter's to refuse
      for (const [key, cond] of Object.entries(node)) {
        if (key === '_and' || key === '_or') {
          if (Array.isArray(cond)) cond.forEach(walk);
        } else this.check(key);
      }
    };
    walk(filter);
  }

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
