import type { Locator, Page } from 'playwright-core';
import { isFocused } from './browser';

/** Press Tab (at most `max` times) until `target` has the focus: proof that a keyboard reaches it. */
export async function tabTo(page: Page, target: Locator, max = 250): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The page scrolls sideways (wider than the viewport) at the current size: the elements that stick out, or none. */
export async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = window.innerWidth;
    if (document.documentElement.scrollWidth <= w) return [];
    return [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > w && !el.closest('.table-scroll'))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} “${(el.textContent ?? '').slice(0, 40)}”`);
  });
}
