import { copyObject, isJsonObject, jsonEqual, setMember, type Json } from './json-value';

/** One RFC 6902 operation (the ones produced and applied here). */
export type PatchOp =
  | { op: 'test'; path: string; value: Json }
  | { op: 'add'; path: string; value: Json }
  | { op: 'replace'; path: string; value: Json }
  | { op: 'remove'; path: string };

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
const pointer = (key: string) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
const unescape = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The RFC 6902 patch from `a` to `b`, member by member of the item: every member it replaces or removes is first
 * `test`ed against its value in `a`, so applied to anything but `a`'s values it fails instead of writing over
 * changes made since. Not two objects (a deleted state is null): the whole document, tested and replaced.
 */
export function jsonPatch(a: Json, b: Json): PatchOp[] {
  if (!isJsonObject(a) || !isJsonObject(b))
    return jsonEqual(a, b)
      ? []
      : [
          { op: 'test', path: '', value: a },
          { op: 'replace', path: '', value: b },
        ];
  const ops: PatchOp[] = [];
  for (const k of Object.keys(a)) if (!Object.hasOwn(b, k)) ops.push({ op: 'test', path: pointer(k), value: a[k]! }, { op: 'remove', path: pointer(k) });
  for (const k of Object.keys(b)) {
    if (!Object.hasOwn(a, k)) ops.push({ op: 'add', path: pointer(k), value: b[k]! });
    else if (!jsonEqual(a[k], b[k])) ops.push({ op: 'test', path: pointer(k), value: a[k]! }, { op: 'replace', path: pointer(k), value: b[k]! });
  }
  return ops;
}

export class PatchTestFailed extends Error {}

/** Applies RFC 6902 `add`, `remove`, `replace` and `test` to a copy of `doc` (objects and arrays, any depth). */
export function applyJsonPatch(doc: Json, ops: PatchOp[]): Json {
  let root = doc;
  for (const op of ops) root = applyOne(root, op);
  return root;
}

function applyOne(root: Json, op: PatchOp): Json {
  if (op.path === '') {
    if (op.op === 'test') {
      if (!jsonEqual(root, op.value)) throw new PatchTestFailed('test failed at the document');
      return root;
    }
    if (op.op === 'remove') return null;
    return op.value;
  }
  const tokens = op.path.slice(1).split('/').map(unescape);
  return edit(root, tokens, op);
}

/** Copies the containers on the path and changes the last one. */
function edit(node: Json, tokens: string[], op: PatchOp): Json {
  const [key, ...rest] = tokens as [string, ...string[]];
  if (Array.isArray(node)) {
    const arr = [...node];
    const i = key === '-' ? arr.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > arr.length) throw new PatchTestFailed(`no index ${key}`);
    if (rest.length) {
      arr[i] = edit(arr[i] ?? null, rest, op);
      return arr;
    }
    if (op.op === 'test') {
      if (!jsonEqual(arr[i], op.value)) throw new PatchTestFailed(`test failed at ${key}`);
    } else if (op.op === 'add') arr.splice(i, 0, op.value);
    else if (op.op === 'remove') arr.splice(i, 1);
    else arr[i] = op.value;
    return arr;
  }
  if (!isJsonObject(node)) throw new PatchTestFailed(`no member ${key}`);
  const obj = copyObject(node);
  const has = Object.hasOwn(obj, key);
  if (rest.length) {
    if (!has) throw new PatchTestFailed(`no member ${key}`);
    setMember(obj, key, edit(obj[key]!, rest, op));
    return obj;
  }
  if (op.op === 'test') {
    if (!has || !jsonEqual(obj[key], op.value)) throw new PatchTestFailed(`test failed at ${key}`);
  } else if (op.op === 'add') setMember(obj, key, op.value);
  else {
    if (!has) throw new PatchTestFailed(`no member ${key}`);
    if (op.op === 'remove') delete obj[key];
    else setMember(obj, key, op.value);
  }
  return obj;
}
