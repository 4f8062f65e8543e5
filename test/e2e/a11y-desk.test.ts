import { violationsOf } from './a11y';
import { launchBrowser, startServer, type RunningServer } from './harness';
import { walkDesk } from './desk';
import type { Browser, Page } from 'playwright-core';

/**
 * Accessibility of every screen of the merchant's desk: no WCAG 2.2 AA violation axe-core can find at 1280 px and at
 * 375 px, and nothing wider than the phone (a table scrolls inside its own region).
 */

jest.setTimeout(180_000);

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.each(['desktop', 'mobile'] as const)('every desk screen on %s: no axe violation, nothing wider than the screen', async (device) => {
  const found: Record<string, string[]> = {};
  const visited: string[] = [];
  await walkDesk(browser, server, device, async (screen, page) => {
    visited.push(screen);
    const violations = await violationsOf(page);
    const wider = await overflow(page);
    if (wider > 0) violations.push(`horizontal overflow: ${wider}px`);
    if (violations.length > 0) found[screen] = violations;
  });
  expect(visited).toHaveLength(19);
  expect(found).toEqual({});
});
