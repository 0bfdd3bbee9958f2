import type { Collection } from './collections';

type Item = Record<string, unknown>;
const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g;

/** The collection's `meta.display_template` ("{{name}} ({{email}})"), when it names at least one of its fields. */
function template(c: Collection): string | undefined {
  const t = c.meta?.display_template;
  if (typeof t !== 'string') return undefined;
  return [...t.matchAll(PLACEHOLDER)].some((m) => c.fields.some((f) => f.field === m[1])) ? t : undefined;
}

/** The fields an item's label needs: the template's, else the first string field, else none (the key). */
export function displayFields(c: Collection): string[] {
  const t = template(c);
  if (t) return [...new Set([...t.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((f) => c.fields.some((x) => x.field === f)))];
  const first = c.fields.find((f) => f.type === 'string' && f.field !== c.primary_key);
  return first ? [first.field] : [];
}

/** An item as people name it: the display template filled in, else its first string field, else its collection and key. */
export function displayLabel(c: Collection, item: Item): string {
  const key = String(item[c.primary_key] ?? '');
  const t = template(c);
  const text = t
    ? t.replace(PLACEHOLDER, (_, f: string) => (item[f] == null ? '' : String(item[f]))).trim()
    : displayFields(c)
        .map((f) => (item[f] == null ? '' : String(item[f])))
        .join(' ')
        .trim();
  return text ? text : key ? `${c.collection} ${key}` : `new ${c.collection} item`;
}

/** The `fields` a list of items needs to label them (the key and the display fields). */
export const labelQuery = (c: Collection) => [c.primary_key, ...displayFields(c)].join(',');
