import type { ZodType, core, output } from 'zod';
import { errors } from '@vellum/errors';

/** Marks an issue that has no message of its own in the schema: `reasonOf` words it in the house style. */
const DEFAULT = '\u0000';

type Issue = core.$ZodIssue & { input?: unknown };
type Path = readonly PropertyKey[];

const name = (path: Path) => (path.length ? `"${path.map(String).join('.')}"` : '"body"');
const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** A union issue stands for the option whose root type matched the input (if one did): report that option's issue. */
function innermost(issue: Issue, path: Path = []): { issue: Issue; path: Path } {
  const full = [...path, ...issue.path];
  if (issue.code === 'invalid_union') {
    const typed = issue.errors.find((option) => !option.some((i) => i.code === 'invalid_type' && i.path.length === 0));
    if (typed?.[0]) return innermost(typed[0] as Issue, full);
  }
  return { issue, path: full };
}

/**
 * `{key}` in a schema's message names a sibling value of the failing one (`field {field}: type must be …` →
 * `field "title": type must be …`): the nearest object on the issue's path that has that key.
 */
function fillIn(message: string, body: unknown, path: Path): string {
  const objects: Record<string, unknown>[] = [];
  let at: unknown = body;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) break;
    objects.unshift(at as Record<string, unknown>);
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return message.replace(/\{([a-z_]+)\}/g, (whole, key: string) => {
    const owner = objects.find((o) => !Array.isArray(o) && Object.hasOwn(o, key));
    return owner ? JSON.stringify(owner[key]) : whole;
  });
}

/** The contract's `reason` for a zod issue: the schema's own message, or a house-style one (`"email" is required`). */
export function reasonOf(first: Issue, body?: unknown): string {
  const { issue, path } = innermost(first);
  if (issue.message !== DEFAULT) return fillIn(issue.message, body, path);
  switch (issue.code) {
    case 'invalid_type':
      if (path.length === 0) return `"body" must be ${article(issue.expected)}`;
      return issue.input === undefined ? `${name(path)} is required` : `${name(path)} must be ${article(issue.expected)}`;
    case 'unrecognized_keys':
      return `${name([...path, issue.keys[0]!])} is not allowed`;
    case 'invalid_value':
      return `${name(path)} must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return `${name(path)} must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters long' : issue.origin === 'array' ? ' items long' : ''}`;
    case 'too_big':
      return `${name(path)} must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters long' : issue.origin === 'array' ? ' items long' : ''}`;
    default:
      return `${name(path)} is invalid`;
  }
}

/**
 * Validate a request body with its schema (from `@vellum/contracts`): the parsed value, or 400 INVALID_PAYLOAD
 * whose `reason` is the first problem in the schema's order (object keys in declaration order, unknown keys last).
 */
export function parseBody<S extends ZodType>(schema: S, body: unknown): output<S> {
  const result = schema.safeParse(body, { error: () => DEFAULT, reportInput: true });
  if (result.success) return result.data;
  throw errors.invalidPayload(reasonOf(result.error.issues[0] as Issue, body));
}
