import type { IncomingMessage } from 'node:http';
import { errors } from '@vellum/errors';

/** Deeper JSON than this is refused: no content needs it, and the code that walks a value (filters, JSON fields) recurses. */
export const MAX_JSON_DEPTH = 100;

/** Whether `value` nests objects and arrays more than `max` levels deep (walked without recursion). */
export function jsonTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * A parsed JSON body nested more than MAX_JSON_DEPTH levels → 400 INVALID_PAYLOAD (it overflowed the stack of the
 * code that walks it: a 500). A body too short to nest that deep is not walked.
 */
export function refuseDeepJson(req: IncomingMessage & { body?: unknown }, _res: unknown, next: (err?: unknown) => void): void {
  const body = req.body;
  const length = Number(req.headers['content-length']);
  if (length < 2 * MAX_JSON_DEPTH || typeof body !== 'object' || body === null || checked.has(body)) return next();
  if (jsonTooDeep(body)) return next(errors.invalidPayload(`The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`));
  checked.add(body);
  next();
}

/** Bodies already walked: the embedded gateway hands its parsed body to the service, whose stack would walk it again. */
const checked = new WeakSet<object>();
