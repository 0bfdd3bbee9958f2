import { existsSync, readdirSync } from 'node:fs';

/**
 * The whole messages in a mail directory of the file transport, once at least `count` are there (polling every
 * 100 ms up to `timeoutMs`): the `.eml` files, not the `.tmp` files they are written as before being renamed.
 */
export async function waitForMailFiles(dir: string, count = 1, timeoutMs = 20_000): Promise<string[]> {
  const mails = () =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
      : [];
  for (const deadline = Date.now() + timeoutMs; mails().length < count && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 100));
  return mails();
}
