import type { Plan, RawMember, Sql } from '@vellum/query';
import { listWithChildrenText, type Embedded } from './read-embedded';

/** A list's statement whose rows are written as the answer's JSON text, and the members its children columns give. */
export interface ListText {
  statement: Sql;
  raw: RawMember[];
}

/**
 * The list read as text (rows as arrays, written by the plan: Plan.serializeArrays), when it can be: a list whose
 * rows the plan writes, with no alias field or every one's children as their answer's JSON text
 * (Embedded.texts) and the key not dropped after (`strip`); the caller leaves a versioned read out (its nested
 * data is laid over the shaped rows). Undefined: shaped objects, stringified.
 */
export function listText(plan: Plan, aliases: number, strip: boolean, embedded: Embedded | undefined): ListText | undefined {
  if (plan.kind !== 'list' || !plan.serializeArrays) return undefined;
  if (aliases === 0) return { statement: plan.list(), raw: [] };
  const texts = embedded?.texts;
  if (!texts || strip) return undefined;
  return { statement: listWithChildrenText(plan, texts), raw: texts.map((t, i) => ({ name: t.alias, column: `$children${i}` })) };
}
