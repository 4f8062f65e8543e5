import type { Page } from 'playwright-core';
import { deskMessages } from '../../src/desk/services/messages';
import { pressUntilFocused, violationsOf } from './a11y';
import { deskAccount, DESK_SCREENS, walkDesk } from './desk';
import { DESKTOP, useLiveServer, usePages } from './harness';

/**
 * Accessibility of every screen of the merchant's desk: no WCAG 2.2 AA violation axe-core can find at 1280 px and at
 * 375 px, and nothing wider than the screen (a table scrolls inside its own region); and a manager signs in and issues
 * a bill with the keyboard alone.
 */

// A walk of eighteen screens with an axe scan on each, twice (a device a test), on a shared 2-core machine.
jest.setTimeout(420_000);

const live = useLiveServer();
const openPage = usePages(live);
const m = deskMessages;

/**
 * How many CSS pixels the page is wider than its layout viewport. Not the window's inner width: on a phone's viewport
 * the browser zooms out to show a page too wide, and the inner width grows with it.
 */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.each(['desktop', 'mobile'] as const)('every desk screen on %s: no axe violation, nothing wider than the screen', async (device) => {
  const found: Record<string, string[]> = {};
  const visited: string[] = [];
  await walkDesk(live.browser, live.server, device, async (screen, page) => {
    visited.push(screen);
    const violations = await violationsOf(page);
    const wider = await overflow(page);
    if (wider > 0) violations.push(`horizontal overflow: ${wider}px`);
    if (violations.length > 0) found[screen] = violations;
  });
  expect(visited).toEqual(DESK_SCREENS);
  expect(found).toEqual({});
});

test('keyboard alone: a manager signs in and issues a bill with Tab, typing and Enter', async () => {
  const { page } = await openPage(DESKTOP);
  const { email, password } = deskAccount(live.server, 'manager');
  await page.goto(`${live.server.url}/desk/`);
  const emailField = page.getByLabel(m.signIn.email);
  await emailField.waitFor();
  await pressUntilFocused(page, emailField);
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');

  // Each page puts focus on its title; the menu is reached from there (backwards: it is above the title).
  const title = page.locator('#page-title');
  await page.getByRole('heading', { name: m.bills.title, level: 1 }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'page-title');
  await pressUntilFocused(page, page.getByRole('link', { name: m.app.navNewBill }), 'Shift+Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: m.newBill.title, level: 1 }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'page-title');

  const typeInto = async (label: string, text: string) => {
    await pressUntilFocused(page, page.getByLabel(label, { exact: true }));
    await page.keyboard.type(text);
  };
  await typeInto(m.newBill.purpose, 'Оплата по договору 7');
  await typeInto(m.newBill.name, 'Орлов Илья');
  await typeInto(m.newBill.itemName, 'Консультация');
  await typeInto(m.newBill.price, '1500');
  // The VAT by arrows on its list (the first one down from the default).
  const vat = page.getByLabel(m.newBill.vat, { exact: true });
  const before = await vat.inputValue();
  await pressUntilFocused(page, vat);
  await page.keyboard.press('ArrowDown');
  expect(await vat.inputValue()).not.toBe(before);
  await pressUntilFocused(page, page.getByRole('button', { name: m.newBill.submit }));
  await page.keyboard.press('Enter');

  await page.waitForURL(/\/desk\/bills\/(?!new$)[A-Za-z0-9_-]+$/);
  await page.getByRole('heading', { name: /^Счет /, level: 1 }).waitFor();
  expect(await title.evaluate((element) => element === document.activeElement)).toBe(true);
  const cells = await page.getByRole('region', { name: m.bill.positions }).getByRole('row').nth(1).getByRole('cell').allTextContents();
  expect(cells.slice(0, 3).map((text) => text.replace(/\s+/g, ' '))).toEqual(['Консультация', '1', '1 500,00 руб.']);
});
