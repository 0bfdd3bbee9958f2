import type { Browser } from 'playwright-core';
import { launchChromium, openContext, type AppPage } from './browser';
import { ADMIN, startPlatformProcess, type PlatformProcess } from './platform-process';
import { signIn } from './sign-in';

export interface BrowserSuite {
  platform: PlatformProcess;
  browser: Browser;
  /** A context signed in as the first administrator (with `signedInAdmin`). */
  admin: AppPage;
}

/**
 * The setup every browser test file shares: beforeAll starts the platform as `npm start` runs it (`env` added)
 * and Chromium side by side, then — `signedInAdmin` — opens a context signed in as the first administrator, then
 * runs `prepare`; afterAll closes the browser and stops the platform. The object is filled in by beforeAll: read
 * its fields inside the tests.
 */
export function browserSuite(
  opts: { env?: Record<string, string>; signedInAdmin?: boolean; prepare?: (s: BrowserSuite) => Promise<void>; timeoutMs?: number } = {},
): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    [suite.platform, suite.browser] = await Promise.all([startPlatformProcess(opts.env), launchChromium()]);
    if (opts.signedInAdmin) {
      suite.admin = await openContext(suite.browser, suite.platform.url);
      await signIn(suite.admin.page, ADMIN.email, ADMIN.password);
    }
    await opts.prepare?.(suite);
  }, opts.timeoutMs ?? 120_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.platform?.stop();
  });
  return suite;
}
