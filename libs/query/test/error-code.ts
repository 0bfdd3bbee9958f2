/** The `code` of what `fn` throws (INVALID_QUERY, FORBIDDEN, …), or 'ok' when it does not throw. */
export function errorCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'ok';
}
