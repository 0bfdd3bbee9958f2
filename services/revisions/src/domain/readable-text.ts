/**
 * `readable` on JSON text (a `data`/`delta` value as the database's `jsonb::text`), giving JSON text: the members of a
 * top-level object whose keys are allowed, copied as they are — no objects built, nothing parsed below the top level.
 * The same JSON as `JSON.stringify(readable(JSON.parse(text), allowed))` once parsed. Text that is not a plain
 * top-level object (an array, a scalar) passes whole, as `readable` passes such values.
 */
export function readableText(text: string, allowed: '*' | Set<string> | undefined): string {
  if (allowed === undefined) return 'null';
  if (allowed === '*') return text;
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 123 /* { */) return text;
  let out = '';
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 125 /* } */) return '{}';
  for (;;) {
    const keyStart = i;
    const keyEnd = skipString(text, i);
    const raw = text.slice(keyStart + 1, keyEnd - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(keyStart, keyEnd)) as string) : raw;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 58 /* : */) throw new SyntaxError('JSON text: ":" expected');
    const valueStart = skipSpace(text, i + 1);
    const valueEnd = skipValue(text, valueStart);
    if (allowed.has(key)) out += `${out ? ',' : ''}${text.slice(keyStart, keyEnd)}:${text.slice(valueStart, valueEnd)}`;
    i = skipSpace(text, valueEnd);
    const c = text.charCodeAt(i);
    if (c === 125 /* } */) return `{${out}}`;
    if (c !== 44 /* , */) throw new SyntaxError('JSON text: "," or "}" expected');
    i = skipSpace(text, i + 1);
  }
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/** The index after the string starting at i (a `"`): the next quote not escaped by an odd run of backslashes. */
function skipString(text: string, i: number): number {
  if (text.charCodeAt(i) !== 34) throw new SyntaxError('JSON text: string expected');
  let j = i;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j === -1) throw new SyntaxError('JSON text: unterminated string');
    let b = j - 1;
    while (text.charCodeAt(b) === 92 /* \ */) b--;
    if ((j - 1 - b) % 2 === 0) return j + 1;
  }
}

/** The index after the value starting at i: a string, or everything up to its closing bracket, or a scalar. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c !== 123 && c !== 91 /* [ */) {
    let j = i;
    for (;;) {
      const d = text.charCodeAt(j);
      if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9 || Number.isNaN(d)) return j;
      j++;
    }
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 34) j = skipString(text, j) - 1;
    else if (d === 123 || d === 91) depth++;
    else if ((d === 125 || d === 93) && --depth === 0) return j + 1;
  }
  throw new SyntaxError('JSON text: unterminated value');
}
