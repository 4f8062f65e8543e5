/**
 * Screenshots of every screen of the payer's page and of the merchant's desk at 375 px and 1280 px into
 * docs/screenshots/<screen>-375.png / -1280.png. Run after a build: `DIST_DIR=... npx tsx scripts/screenshots.ts
 * [screen-name-filter]` (a filter starting with "desk" walks the desk alone). It also reports any screen wider than its
 * viewport (horizontal scroll), which the a11y journeys assert from 320 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, startServer } from '../test/e2e/harness';
import type { Page } from 'playwright-core';
import { walkDesk } from '../test/e2e/desk';
import { journeys, walk, type Device } from '../test/e2e/screens';

const out = path.resolve(__dirname, '..', 'docs', 'screenshots');
const width: Record<Device, number> = { desktop: 1280, mobile: 375 };
const filter = process.argv[2];

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const browser = await launchBrowser();
  const overflowing: string[] = [];
  try {
    for (const device of ['mobile', 'desktop'] as const) {
      const shoot = async (name: string, page: Page) => {
        if (filter && !name.includes(filter)) return;
        // Let transitions and images settle before the picture.
        await page.waitForTimeout(250);
        // Against the layout viewport: a phone's browser zooms out on a page too wide, and its inner width grows.
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (scroll > 0) overflowing.push(`${name} @${width[device]}: ${scroll}px too wide`);
        const file = path.join(out, `${name}-${width[device]}.png`);
        await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
        console.log(`  ${path.relative(process.cwd(), file)}`);
      };
      // One device pixel per CSS pixel: the files stay small and show the layout at its real width.
      const onePixel = { deviceScaleFactor: 1 };
      // A server per device: the forgot-password journey may send a phone only one SMS a minute. Behind a proxy of its
      // own, as far as it knows: each journey's payer has an address of its own (walk), or the code sends of all the
      // journeys from one address meet the limit of ten a minute.
      const server = await startServer({ trustProxy: ['loopback'] });
      try {
        for (const journey of filter?.startsWith('desk') ? [] : journeys) {
          if (journey.devices && !journey.devices.includes(device)) continue;
          await walk(browser, server, journey, device, shoot, onePixel);
        }
      } finally {
        await server.stop();
      }
      // The merchant's desk, every page of it (test/e2e/desk.ts, the walk its accessibility test takes too), on a
      // server of its own: its lists show the seeded bills alone, as the walk expects.
      const deskServer = await startServer();
      try {
        await walkDesk(browser, deskServer, device, shoot, onePixel);
      } finally {
        await deskServer.stop();
      }
    }
  } finally {
    await browser.close();
  }
  if (overflowing.length > 0) {
    console.error(`Horizontal overflow:\n  ${overflowing.join('\n  ')}`);
    process.exitCode = 1;
  }
}

void main();
