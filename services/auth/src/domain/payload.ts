import { UUID } from '@vellum/contracts';
import { errors } from '@vellum/errors';

// Request bodies are validated with the contract's schemas (@vellum/contracts, `route(…, { body })`).

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
