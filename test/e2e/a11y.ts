import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { DESKTOP, freshBill, newContext, useLiveServer, type RunningServer } from './harness';
import { journeys, walk, type Device } from './screens';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';

const m = messages;

/**
 * Accessibility of every screen: axe-core finds no WCAG 2.2 AA violation on any screen at 1280 px and at
 * 375 px, nothing is wider than a 320 px phone, and a payer pays by card with the keyboard alone.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

/**
 * The axe-core that @axe-core/playwright itself runs (its own copy, not lighthouse's newer one): the same rules. Its
 * seven characters beyond ASCII (all inside string literals) are written as escapes, which JavaScript reads as the same
 * characters, and the protocol carries a string of ASCII alone faster: its 564 KB, sent into every new document a walk
 * scans, took 91 ms to be run in a page with them and 64 ms without (over the DevTools protocol, medians of 11).
 */
const axeSource = fs
  .readFileSync(require.resolve('axe-core/axe.min.js', { paths: [path.dirname(require.resolve('@axe-core/playwright'))] }), 'utf8')
  .replace(/[^\t\n\r -~]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);

type WithAxe = { axe: typeof import('axe-core') };

/**
 * axe's WCAG 2.2 AA violations on the page's document. axe is put into a document once, and each scan is one
 * `axe.run`: @axe-core/playwright's `analyze()` injects axe again at every scan and gathers the results in a blank page
 * of its own, about five times the time of the scan itself, and a journey scans one document again and again. Frames
 * are not entered (`iframes: false`; otherwise axe asks each frame for its own axe and waits half a second for the
 * answer that never comes): the page's only frames are the sandbox's stand-ins for the bank's pages (the bank-app
 * widget), which are not the checkout, as the sandbox's card form is not; the frame element itself is checked like
 * any other.
 */
export async function violationsOf(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async (tags) =>
      (await (window as unknown as WithAxe).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false })).violations,
    TAGS,
  );
  return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** How many CSS pixels the page is wider than a 320 px phone (0 when it fits). */
async function overflowAt320(page: Page): Promise<number> {
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: 320, height: viewport.height });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.setViewportSize(viewport);
  return overflow;
}

/**
 * The axe walk of every screen on one device. A file per device (a11y-desktop, a11y-mobile) so that jest runs the
 * two on both cores; each file has its own server, as the forgot-password journey may send its fixed phone only one
 * SMS a minute.
 */
export function describeScreensOn(device: Device) {
  // Each journey walks several screens on a cold Chromium shared by 2 cores, and axe scans each one.
  jest.setTimeout(90_000);
  // Behind a proxy of its own, as far as the server knows: each journey's payer has an address of its own (walk).
  const live = useLiveServer(() => ({ trustProxy: ['loopback'] }));

  const ours = journeys.filter((journey) => !journey.devices || journey.devices.includes(device));
  test.each(ours.map((journey) => [journey.name, journey] as const))('%s: no axe violation', async (_name, journey) => {
    const found: Record<string, string[]> = {};
    const visited: string[] = [];
    await walk(live.browser, live.server, journey, device, async (screen, page) => {
      visited.push(screen);
      // The sandbox acquirer's card form stands in for the bank's own page: not part of the checkout.
      if (screen === 'sandbox-card-form') return;
      const violations = await violationsOf(page);
      if (device === 'mobile') {
        const overflow = await overflowAt320(page);
        if (overflow > 0) violations.push(`horizontal overflow at 320 px: ${overflow}px`);
      }
      if (violations.length > 0) found[screen] = violations;
    });
    expect(visited.length).toBeGreaterThan(0);
    expect(found).toEqual({});
  });
}

/** Presses a key until the target has focus (a keyboard user's Tab walk), failing after `max` presses. */
export async function pressUntilFocused(page: Page, target: Locator, key = 'Tab', max = 25) {
  for (let presses = 0; presses < max; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${target.toString()}`);
}

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** The whole card payment of demo-anon by keyboard alone. */
export async function payByKeyboardAlone(browser: Browser, server: RunningServer) {
  const context = await newContext(browser, DESKTOP);
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/pay/${await freshBill(server, 'demo-anon')}`);
    const email = page.getByLabel(m.email.label);
    await email.waitFor();
    // The first step takes no focus by itself: the payer starts from the top of the page.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);

    await pressUntilFocused(page, email);
    await page.keyboard.type('payer@example.com');
    await page.keyboard.press('Enter');

    // The step change puts focus on the new step's heading.
    const heading = page.getByRole('heading', { name: stepMessages.choosePaymentType.title });
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'step-title');
    expect(await isFocused(heading)).toBe(true);

    // Into the radio group (the first type is preselected), then arrows move the choice.
    const card = page.getByRole('radio', { name: /Банковская карта/ });
    const sbp = page.getByRole('radio', { name: /СБП/ });
    await pressUntilFocused(page, card);
    await page.keyboard.press('ArrowDown');
    expect(await sbp.isChecked()).toBe(true);
    await page.getByText(stepMessages.choosePaymentType.fee, { exact: true }).waitFor();

    const pay = page.getByRole('button', { name: stepMessages.choosePaymentType.pay });
    await pressUntilFocused(page, pay);
    // Back into the group with Shift+Tab to change the mind: the card again.
    await pressUntilFocused(page, sbp, 'Shift+Tab');
    await page.keyboard.press('ArrowUp');
    expect(await card.isChecked()).toBe(true);
    await pressUntilFocused(page, pay);
    await page.keyboard.press('Enter');

    // The acquirer's card form, by keyboard too.
    await page.waitForURL(/\/sandbox\/acquirer\//);
    const number = page.getByLabel('Номер карты');
    await number.waitFor();
    await pressUntilFocused(page, number);
    await page.keyboard.type(TEST_CARDS.pays);
    await page.keyboard.press('Tab');
    await page.keyboard.type('12/30');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    // The sandbox acquirer's own button (its copy is the sandbox's, not the page's).
    await pressUntilFocused(page, page.getByRole('button', { name: 'Оплатить' }));
    await page.keyboard.press('Space');

    await page.waitForURL(/\/success\?billOid=.*orderId=/);
    await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 20_000 });
  } finally {
    await context.close();
  }
}
