import { copyObject, isJsonObject, jsonEqual, setMember, type Json, type JsonObject } from './json-value';

/** Why `b` cannot be written as an RFC 7396 merge patch: the member whose null the patch would read as "remove". */
export class InexpressibleNull extends Error {
  constructor(readonly path: string) {
    super(`"${path}" is null in the target state, and a merge patch reads null as "remove this member"`);
  }
}

/** The first member path holding null inside an object that a merge patch would carry (arrays are taken whole). */
function nullMember(v: Json, path: string): string | undefined {
  if (!isJsonObject(v)) return undefined;
  for (const k of Object.keys(v)) {
    const x = v[k]!;
    if (x === null) return `${path}/${k}`;
    const inner = nullMember(x, `${path}/${k}`);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * The RFC 7396 merge patch that turns `a` into `b`. Throws InexpressibleNull when `b` holds a null member that `a`
 * does not hold as null at the same place: in a merge patch null means "remove", so no patch sets a member to null
 * (nor writes an object containing a null member where `a` has no object).
 */
export function mergePatch(a: Json, b: Json, path = ''): Json {
  if (isJsonObject(a) && isJsonObject(b)) {
    const patch: JsonObject = {};
    for (const k of Object.keys(a)) if (!Object.hasOwn(b, k)) setMember(patch, k, null);
    for (const k of Object.keys(b)) {
      const to = b[k]!;
      const has = Object.hasOwn(a, k);
      if (has && jsonEqual(a[k], to)) continue;
      if (to === null) throw new InexpressibleNull(`${path}/${k}`);
      setMember(patch, k, has && isJsonObject(a[k]) && isJsonObject(to) ? mergePatch(a[k]!, to, `${path}/${k}`) : checked(to, `${path}/${k}`));
    }
    return patch;
  }
  if (jsonEqual(a, b) && isJsonObject(a)) return {};
  return checked(b, path);
}

function checked(v: Json, path: string): Json {
  const bad = nullMember(v, path);
  if (bad) throw new InexpressibleNull(bad);
  return v;
}

/** RFC 7396 §2 MergePatch(Target, Patch). */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isJsonObject(patch)) return patch;
  const out = isJsonObject(target) ? copyObject(target) : {};
  for (const k of Object.keys(patch)) {
    const v = patch[k]!;
    if (v === null) delete out[k];
    else setMember(out, k, applyMergePatch(Object.hasOwn(out, k) ? out[k]! : null, v));
  }
  return out;
}
