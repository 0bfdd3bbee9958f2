import { useState } from 'preact/hooks';

/**
 * An action of a panel (revoke, sign out…): `run(call, done)` clears the last notice and error, awaits `call`,
 * then shows `done` and calls `after` (a reload), or shows the error's message.
 */
export function useAction(after: () => void): { notice?: string; error?: string; run: (call: () => Promise<unknown>, done: string) => Promise<void> } {
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const run = async (call: () => Promise<unknown>, done: string) => {
    setNotice(undefined);
    setError(undefined);
    try {
      await call();
      setNotice(done);
      after();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return { notice, error, run };
}
