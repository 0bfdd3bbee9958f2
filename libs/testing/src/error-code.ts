/** Anything carrying a response body (a supertest or fetch-decoded response). */
export interface WithBody {
  body?: unknown;
}

interface ErrorBody {
  errors?: { message?: string; extensions?: { code?: string; reason?: string } }[];
}

/** The first error of a Directus-style error body (`{ errors: [{ message, extensions }] }`), if any. */
export function firstError(r: WithBody): NonNullable<ErrorBody['errors']>[number] | undefined {
  const body = r.body as ErrorBody | null | undefined;
  return Array.isArray(body?.errors) ? body.errors[0] : undefined;
}

/** `extensions.code` of the first error of a response body, or undefined when it has none. */
export function errorCode(r: WithBody): string | undefined {
  return firstError(r)?.extensions?.code;
}
