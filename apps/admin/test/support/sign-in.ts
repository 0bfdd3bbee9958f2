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
