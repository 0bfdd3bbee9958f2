import type { Page } from 'playwright-core';
import { see } from './browser';

/** Sign in through the app's form and wait until the app shows the signed-in user. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  if (!/\/admin\/login/.test(page.url())) await page.goto('/admin/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await see(page.getByText(`Signed in as ${email}`));
}

/**
 * Move between two pages of the signed-in app until one of its calls meets the ended session and the app shows
 * the sign-in page with the way back (a revocation reaches the gateway within a second: bounded, no fixed sleep).
 */
export async function untilAskedToSignIn(page: Page): Promise<void> {
  for (let i = 0; i < 20 && !/\/admin\/login\?next=/.test(page.url()); i++) {
    await page.getByRole('link', { name: i % 2 ? 'Activity' : 'Content', exact: true }).click();
    await page.waitForURL(/\/admin\/login\?next=/, { timeout: 1000 }).catch(() => undefined);
  }
  await page.waitForURL(/\/admin\/login\?next=%2F(content|activity)/);
}
