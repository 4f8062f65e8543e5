import type { Browser } from 'playwright-core';
import { describeScreensOn, payByKeyboardAlone } from './a11y';
import { launchBrowser, startServer, type RunningServer } from './harness';

/** Accessibility at 1280 px: axe on every screen, and a card payment by keyboard alone. */
describe('desktop', () => describeScreensOn('desktop'));

describe('keyboard', () => {
  let browser: Browser;
  let server: RunningServer;
  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  test('keyboard alone: demo-anon pays by card with Tab, Shift+Tab, arrows, Space and Enter', () => payByKeyboardAlone(browser, server));
});
