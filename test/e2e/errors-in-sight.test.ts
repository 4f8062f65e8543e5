import type { Locator, Page } from 'playwright-core';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { violationsOf } from './a11y';
import { DESKTOP, freshBill, MOBILE, useLiveServer, usePages, type RunningServer } from './harness';

/*
 * What a tap makes go wrong is in sight: on a phone the Pay bar stays at the bottom of the screen over the form, and an
 * error shown in answer to Pay is brought up above it and focused. An expired bill is told as it is ('Срок оплаты
 * счета истек', with the merchant's support) wherever it is met: Pay, a reload, its link opened afresh.
 */

jest.setTimeout(120_000);

const live = useLiveServer();
const openPage = usePages(live);
const m = messages;
const t = stepMessages.choosePaymentType;
const PAY = /^Оплатить \d/;

/** The bill's deadline passes now (the expiry sweep has not closed it yet: the server refuses it all the same). */
async function expire(server: RunningServer, link: string) {
  await server.app.store.db.updateTable('bills').set({ expires_at: server.app.store.now() - 1000 }).where('link_id', '=', link).execute();
}

/**
 * Whether the element is whole on screen and not under the Pay bar; waits (for events: frames) for the page's scroll
 * to settle, so a busy machine does not fail it.
 */
async function inSight(locator: Locator) {
  const handle = await locator.elementHandle();
  await locator.page().waitForFunction(
    (element) => {
      const rect = element!.getBoundingClientRect();
      const bar = document.querySelector('.pay-bar')?.getBoundingClientRect();
      const bottom = Math.min(window.innerHeight, bar && bar.top < window.innerHeight ? bar.top : Infinity);
      return rect.top >= 0 && rect.bottom <= bottom;
    },
    handle,
    { timeout: 5_000 },
  );
}

const isFocusedWithin = (locator: Locator) => locator.evaluate((element) => element.contains(document.activeElement));

/** The way-to-pay step of a fresh copy of the demo, the receipt e-mail typed on the first step. */
async function toWayToPay(page: Page, demo: string) {
  const link = await freshBill(live.server, demo);
  await page.goto(`${live.server.url}/pay/${link}`);
  await page.getByLabel(m.email.label, { exact: true }).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: t.title }).waitFor();
  return link;
}

describe.each([
  ['375', MOBILE],
  ['1280', DESKTOP],
] as const)('at %s px', (_width, device) => {
  test('Pay on a bill whose deadline passed says so, in sight above the Pay bar, with the support; a reload says the same', async () => {
    const { page } = await openPage(device);
    const link = await toWayToPay(page, 'demo-anon');
    await page.getByRole('radio', { name: /Банковская карта/ }).check();
    await expire(live.server, link);
    await page.getByRole('button', { name: PAY }).click();

    const error = page.getByRole('alert').filter({ hasText: m.closed.expired });
    await error.waitFor();
    // No advice to try another way: none can help.
    expect(await error.textContent()).not.toContain('сменить способ оплаты');
    await error.getByRole('link', { name: '+7 (800) 555-01-00' }).waitFor();
    await inSight(error);
    expect(await isFocusedWithin(error)).toBe(true);
    expect(await violationsOf(page)).toEqual([]);

    await page.reload();
    await page.getByRole('heading', { name: m.closed.expired }).waitFor();
    expect(await page.getByText(m.app.dataError).count()).toBe(0);
    await page.getByRole('main').getByRole('link', { name: '+7 (800) 555-01-00' }).waitFor();
    expect(await page.title()).toBe(m.closed.expired);
    expect(await violationsOf(page)).toEqual([]);
  });

  test('an expired bill opened afresh says so from the first HTML', async () => {
    const { page } = await openPage(device);
    const link = await freshBill(live.server, 'demo-anon');
    await expire(live.server, link);
    const html = await (await fetch(`${live.server.url}/pay/${link}`)).text();
    expect(html).toContain(m.closed.expired);
    await page.goto(`${live.server.url}/pay/${link}`);
    await page.getByRole('heading', { name: m.closed.expired }).waitFor();
    await page.locator('[data-shown]').waitFor({ state: 'attached' });
    expect(await page.getByText(m.app.dataError).count()).toBe(0);
  });
});

test('at 375 px the second agreement missing: its error is in sight above the Pay bar, its box focused', async () => {
  const { page } = await openPage(MOBILE);
  await toWayToPay(page, 'demo-offer');
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('checkbox', { name: t.aggregatorOffer }).check();
  await page.getByRole('button', { name: PAY }).tap();

  const error = page.getByRole('alert').filter({ hasText: t.executorRequired });
  await error.waitFor();
  await inSight(error);
  await inSight(page.getByRole('checkbox', { name: t.executorOffer }));
  expect(await page.getByRole('checkbox', { name: t.executorOffer }).evaluate((box) => box === document.activeElement)).toBe(true);
});
