import { errors } from '@vellum/errors';

export type FieldType = 'string' | 'nullable-string' | 'boolean' | 'string-array' | 'json' | 'uuid-or-null';
export type FieldSpec = Record<string, FieldType>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A syntactically valid address; `.local`/`localhost` domains count as valid. */
export const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/;

export function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw errors.invalidPayload('"body" must be an object');
  return body as Record<string, unknown>;
}

/** Check a write payload against the allowed fields and their types; unknown fields → INVALID_PAYLOAD. */
export function checkPayload(body: unknown, spec: FieldSpec, required: string[] = []): Record<string, unknown> {
  const data = asObject(body);
  for (const r of required) if (data[r] === undefined || data[r] === null) throw errors.invalidPayload(`"${r}" is required`);
  for (const [key, value] of Object.entries(data)) {
    const type = spec[key];
    if (!type) throw errors.invalidPayload(`"${key}" is not allowed`);
    const ok =
      type === 'string'
        ? typeof value === 'string'
        : type === 'nullable-string'
          ? value === null || typeof value === 'string'
          : type === 'boolean'
            ? typeof value === 'boolean'
            : type === 'string-array'
              ? value === null || (Array.isArray(value) && value.every((v) => typeof v === 'string'))
              : type === 'uuid-or-null'
                ? value === null || (typeof value === 'string' && UUID.test(value))
                : true;
    if (!ok) throw errors.invalidPayload(`"${key}" must be ${type.replace('-', ' ')}`);
  }
  return data;
}

export const isUuid = (v: string) => UUID.test(v);

/** `limit`/`offset`/`page` of a list request (the common subset of the query language). */
export function paging(query: Record<string, unknown>): { take?: number; skip?: number } {
  const int = (name: string, min: number) => {
    const v = query[name];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (typeof v !== 'string' || !Number.isInteger(n) || n < min) throw errors.invalidQuery(`"${name}" must be an integer ≥ ${min}`);
    return n;
  };
  const limit = int('limit', -1);
  const offset = int('offset', 0);
  const page = int('page', 0);
  const take = limit === undefined ? 100 : limit === -1 ? undefined : limit;
  const skip = page && take ? take * (page - 1) : offset;
  return { take, skip };
}
