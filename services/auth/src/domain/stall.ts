/** Resolve no earlier than `ms` after `startedAt` (every outcome of a login takes the same minimum time). */
export async function stallUntil(startedAt: number, ms: number): Promise<void> {
  const left = startedAt + ms - performance.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
}

/** Runs `fn`; its result or error comes no earlier than `ms` after the call. */
export async function stalled<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  try {
    return await fn();
  } finally {
    await stallUntil(startedAt, ms);
  }
}
