import type { Page } from 'playwright-core';
import { formatMoney } from '../../src/services/format';
import { messages } from '../../src/services/messages';
import type { Bill } from '../../src/services/types';
import { DESKTOP, freshBill, MOBILE, useLiveServer, usePages } from './harness';

/*
 * Paying takes the page's script. With JavaScript off, or the script lost on the way, the page says so (rather than a
 * Continue that spins for ever), and the bill's amount and the merchant's support stay on screen.
 */

jest.setTimeout(60_000);

const live = useLiveServer();
const openPage = usePages(live);
const m = messages;

/** The amount, the support phone, the notice in sight, and no button spinning as if something were coming. */
async function saysScriptNeeded(page: Page, link: string, notice: string) {
  const bill = (await (await fetch(`${live.server.url}/ajax/object-info/${link}`)).json()) as Bill;
  // Playwright's text matching skips `noscript`, whose content is shown here: the notice is found by its class.
  const shown = page.locator('.script-notice:visible');
  await shown.waitFor();
  expect(await shown.evaluate((element) => element.textContent)).toBe(notice);
  expect(await page.locator('.payment-info-sum dd').textContent()).toBe(formatMoney(bill.info.Summ));
  expect(await page.getByRole('link', { name: '+7 (800) 555-01-00' }).isVisible()).toBe(true);
  expect(await page.locator('.spinner-button').evaluateAll((spinners) => spinners.filter((spinner) => spinner.getClientRects().length > 0).length)).toBe(0);
  // Nothing says it will work once the page loads: it will not, and the notice says why.
  expect(await page.locator('.script-waiting:visible').count()).toBe(0);
}

describe.each([
  ['375', MOBILE],
  ['1280', DESKTOP],
] as const)('at %s px', (_width, device) => {
  test('JavaScript off: the first step says paying needs it, with the amount and the support', async () => {
    const context = await live.browser.newContext({ ...device, javaScriptEnabled: false });
    const page = await context.newPage();
    const link = await freshBill(live.server, 'demo-anon');
    await page.goto(`${live.server.url}/pay/${link}`);
    await saysScriptNeeded(page, link, m.app.needsScript);
    await context.close();
  });

  test("the page's script lost on the way: the same, in the words of a load failure", async () => {
    const { page } = await openPage(device);
    // Every script but the boot script fails, as on a network that drops them.
    await page.route(/\/assets\/(?!boot\.)[^/]+\.js$/, (route) => route.abort());
    const link = await freshBill(live.server, 'demo-anon');
    await page.goto(`${live.server.url}/pay/${link}`);
    await saysScriptNeeded(page, link, m.app.scriptFailed);
    expect(await page.getByText(m.app.needsScript).count()).toBe(0);
  });
});

test('with the script running neither notice shows', async () => {
  const { page } = await openPage(MOBILE);
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-anon')}`);
  await page.locator('[data-shown]').waitFor({ state: 'attached' });
  await page.getByRole('button', { name: m.app.continue, disabled: false }).waitFor();
  expect(await page.getByText(m.app.scriptFailed).isVisible()).toBe(false);
  expect(await page.getByText(m.app.needsScript).count()).toBe(0);
});

describe.each([
  ['375', MOBILE],
  ['1280', DESKTOP],
] as const)('the account route at %s px: the sign-in form comes with the first HTML', (_width, device) => {
  test('JavaScript off: the amount and the sign-in form, and the notice that paying needs JavaScript (no promise that the form will work)', async () => {
    const context = await live.browser.newContext({ ...device, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-reg')}`);
    await page.getByRole('heading', { name: m.account.signInTitle }).waitFor();
    expect(await page.locator('.payment-info-sum dd').isVisible()).toBe(true);
    expect(await page.getByLabel(m.account.phone).isVisible()).toBe(true);
    expect(await page.getByLabel(m.account.password).isVisible()).toBe(true);
    expect(await page.getByText(m.account.signInWaiting).isVisible()).toBe(false);
    expect(await page.locator('.script-notice:visible').count()).toBe(1);
    await context.close();
  });

  test("with the form's code slow to come: its outline says what it waits for, then the form takes its place", async () => {
    const { page } = await openPage(device);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/signInForm[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-reg')}`);
    await page.locator('[data-shown]').waitFor({ state: 'attached' });
    // The page's script runs (hydrated), the form's code is not here yet: the outline, with the amount.
    expect(await page.getByRole('heading', { name: m.account.signInTitle }).isVisible()).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: m.account.signInWaiting }).isVisible()).toBe(true);
    expect(await page.locator('.payment-info-sum dd').isVisible()).toBe(true);
    release();
    await page.getByLabel(m.account.phone).and(page.locator(':enabled')).fill('9990000002');
    expect(await page.getByText(m.account.signInWaiting).count()).toBe(0);
    expect(await page.getByRole('heading', { name: m.account.signInTitle }).count()).toBe(1);
  });
});

/** Holds every script but the boot script until released: the page shows the server's markup, its script not running. */
async function holdScripts(page: Page) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(?!boot\.)[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

describe("at 375 px, the page's script on its way: both routes' first steps say what they wait for", () => {
  test('the guest route: the e-mail form and a Continue that says it waits for the page, then works', async () => {
    const { page } = await openPage(MOBILE);
    const release = await holdScripts(page);
    await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-anon')}`, { waitUntil: 'domcontentloaded' });
    await page.getByLabel(m.email.label, { exact: true }).waitFor();
    const waiting = page.getByRole('status').filter({ hasText: m.app.continueWaiting });
    expect(await waiting.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: m.app.continue }).isDisabled()).toBe(true);
    expect(await page.locator('.payment-info-sum dd').isVisible()).toBe(true);
    expect(await page.locator('.script-notice:visible').count()).toBe(0);

    release();
    await page.getByRole('button', { name: m.app.continue, disabled: false }).waitFor();
    expect(await page.getByText(m.app.continueWaiting).count()).toBe(0);
  });

  test('the account route: the sign-in form that says it waits for the page, then works', async () => {
    const { page } = await openPage(MOBILE);
    const release = await holdScripts(page);
    await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-reg')}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { name: m.account.signInTitle }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: m.account.signInWaiting }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: m.app.continue }).isDisabled()).toBe(true);
    expect(await page.locator('.payment-info-sum dd').isVisible()).toBe(true);
    expect(await page.locator('.script-notice:visible').count()).toBe(0);

    release();
    await page.getByLabel(m.account.phone).and(page.locator(':enabled')).fill('9990000002');
    expect(await page.getByText(m.account.signInWaiting).count()).toBe(0);
  });
});
