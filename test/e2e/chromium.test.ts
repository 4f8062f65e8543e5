import fs from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import { chromiumOptions, PLAYWRIGHT_DISABLED_FEATURES } from './chromium';

/** The features a Chromium process was started with turned off (its last `--disable-features`, the one it reads). */
function disabledFeaturesOf(server: BrowserServer): string[] {
  const args = fs.readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0');
  const last = args.filter((arg) => arg.startsWith('--disable-features=')).pop() ?? '--disable-features=';
  return last.slice('--disable-features='.length).split(',').filter(Boolean);
}

describe('the journeys’ Chromium', () => {
  test('keeps every feature Playwright turns off, and opens no address bar popup for a new context', async () => {
    const options = chromiumOptions();
    const plain = await chromium.launchServer({ ...options, args: options.args.filter((arg) => !arg.startsWith('--disable-features=')) });
    const playwrights = disabledFeaturesOf(plain);
    await plain.close();
    expect(playwrights.sort()).toEqual([...PLAYWRIGHT_DISABLED_FEATURES].sort());

    const ours = await chromium.launchServer(options);
    try {
      expect(disabledFeaturesOf(ours)).toEqual(expect.arrayContaining(playwrights));
      const browser = await chromium.connect(ours.wsEndpoint());
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto('data:text/html,<h1>Счёт</h1>');
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
      expect(targetInfos.filter((target) => target.url.startsWith('chrome://')).map((target) => target.url)).toEqual([]);
      expect(targetInfos.map((target) => target.type)).toContain('page');
      await browser.close();
    } finally {
      await ours.close();
    }
  });
});
