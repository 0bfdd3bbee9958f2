import { z } from 'zod';

// Field builders shared by the request schemas: each carries the contract's wording of its own failure, so the
// `reason` of a 400 INVALID_PAYLOAD reads the same whichever service answers.

/** A syntactically valid address; `.local`/`localhost` domains count as valid. */
export const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const missing = (input: unknown) => input === undefined || input === null;

/** Required string: missing or null → `"<name>" is required`, another type → `"<name>" must be a string`. */
export const requiredString = (name: string) => z.string({ error: (iss) => (missing(iss.input) ? `"${name}" is required` : `"${name}" must be a string`) });

/** Optional string (null counts as absent). */
export const optionalString = (name: string) => z.string({ error: `"${name}" must be a string` }).nullish();

/** A required, syntactically valid e-mail address. */
export const requiredEmail = (name = 'email') => requiredString(name).regex(EMAIL, { error: `"${name}" must be a valid email` });

/** A string or null, absent allowed (user and role attributes). */
export const nullableString = (name: string) =>
  z
    .string({ error: `"${name}" must be a string or null` })
    .nullable()
    .optional();

export const optionalBoolean = (name: string) => z.boolean({ error: `"${name}" must be a boolean` }).optional();

/** A uuid or null, absent allowed (a role reference). */
export const uuidOrNull = (name: string) =>
  z
    .string({ error: `"${name}" must be a uuid or null` })
    .regex(UUID, { error: `"${name}" must be a uuid or null` })
    .nullable()
    .optional();

/** One of `values`; another string or type → `"<name>" must be one of a, b, c`. */
export const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T, separator = ', ', brackets = false) => {
  const list = values.join(separator);
  return z.enum(values, { error: `"${name}" must be one of ${brackets ? `[${list}]` : list}` });
};

/** A body that may be absent altogether: no body reads as `{}`, which is then validated like any other body. */
export const absentAsEmpty = <T extends z.ZodObject>(schema: T) => schema.prefault({} as z.input<T>);
