import { AsyncLocalStorage } from 'node:async_hooks';
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { demoAccount, demoBills } from '../../server/sandbox/demoBills';
import { formatMoney } from '../../src/services/format';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import type { Bill, Receipt } from '../../src/services/types';
import { payBillByCard } from '../server/helpers';
import { DESKTOP, freshBill, useLiveServer, usePages } from './harness';

/*
 * The first response is the bill on screen: the server renders the first step (and a paid bill's receipt, and a result
 * page's status) into the page, which the page's script then hydrates without a flash, a warning or a second fetch.
 */

const live = useLiveServer();
const openPage = usePages(live);

/** What the first response shows before any script runs: a page with JavaScript off. */
async function firstResponse(path: string): Promise<Page> {
  const context = await live.browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
  const page = await context.newPage();
  page.on('close', () => void context.close());
  const answer = await page.goto(`${live.server.url}${path}`);
  expect(answer?.status()).toBeLessThan(500);
  return page;
}

const unpaidDemos = demoBills.filter((bill) => !bill.paid).map((bill) => bill.oid);

async function billData(link: string): Promise<{ status: number; body: Bill & { receipt?: Receipt } }> {
  const answer = await fetch(`${live.server.url}/ajax/object-info/${link}`);
  return { status: answer.status, body: (await answer.json()) as Bill & { receipt?: Receipt } };
}

/** A fresh copy of a demo bill paid by card in this checkout: its link and order. */
async function paidCopy(): Promise<{ link: string; orderId: string; receipt: Receipt }> {
  const link = await freshBill(live.server, 'demo-anon');
  const orderId = await payBillByCard(live.server.app, link, TEST_CARDS.pays);
  const { body } = await billData(link);
  return { link, orderId, receipt: body.receipt! };
}

describe('the first response, before any script runs', () => {
  test.each(unpaidDemos)("%s: the bill's purpose and amount, the e-mail form and a Continue that waits for the page", async (oid) => {
    const { body: bill } = await billData(oid);
    const page = await firstResponse(`/pay/${oid}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(bill.info.PaymentPurpose);
    expect(await page.locator('.payment-info-sum dd').textContent()).toBe(formatMoney(bill.info.Summ));
    if (bill.noReg) {
      // The e-mail field takes typing before the page's script; Continue is busy until it can act.
      const email = page.getByLabel(messages.email.label);
      await email.fill('early@example.com');
      expect(await email.inputValue()).toBe('early@example.com');
      const proceed = page.getByRole('button', { name: messages.app.continue });
      expect(await proceed.isDisabled()).toBe(true);
      expect(await proceed.getAttribute('aria-busy')).toBe('true');
    }
    expect(await page.locator('script:not([src])').count()).toBe(0);
    await page.close();
  });

  test('rendering enters no AsyncLocalStorage: on Node 20 the first one would switch async hooks on for every promise', async () => {
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = jest.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    try {
      const { link, orderId } = await paidCopy();
      for (const path of [`/pay/${unpaidDemos[0]}`, `/pay/${link}`, `/success?billOid=${link}&orderId=${orderId}`]) {
        const answer = await fetch(`${live.server.url}${path}`);
        expect(answer.status).toBe(200);
        // Rendered by the server: the page's markup is in the answer, not only the loading state.
        expect(await answer.text()).toContain('<h1');
      }
      // Playwright, which drives the browser from this same process, enters zones of its own (a zone holding the
      // storage it is entered into): not the server's.
      const servers = (spy: typeof run | typeof enterWith) =>
        spy.mock.calls.filter(([store], index) => (store as { _asyncLocalStorage?: unknown } | null)?._asyncLocalStorage !== spy.mock.contexts[index]);
      expect(servers(run)).toEqual([]);
      expect(servers(enterWith)).toEqual([]);
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }
  });

  test("a paid bill's link: 'Счет оплачен' with its receipt (purpose and amount)", async () => {
    const { link, receipt } = await paidCopy();
    const page = await firstResponse(`/pay/${link}`);
    expect(await page.getByRole('heading', { name: receiptMessages.paidTitle }).count()).toBe(1);
    const shown = await page.locator('.receipt').textContent();
    expect(shown).toContain(receipt.purpose);
    expect(shown).toContain(formatMoney(receipt.amount));
    await page.close();
  });

  test('the result page: the status and, paid, the receipt', async () => {
    const { link, orderId, receipt } = await paidCopy();
    const page = await firstResponse(`/success?billOid=${link}&orderId=${orderId}`);
    expect(await page.getByRole('status').textContent()).toBe(stepMessages.status.success);
    expect(await page.locator('.receipt').textContent()).toContain(formatMoney(receipt.amount));
    await page.close();
  });

  test("signed in on the account route: the signed-in user's card and Continue, as get-user gives the user", async () => {
    // A session signed in to the demo account, as the sign-in form would: its cookie, then the page with JavaScript off.
    const opened = await fetch(`${live.server.url}/pay/demo-reg`);
    const cookie = opened.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const csrf = /<meta name=(?:"csrf-token"|csrf-token) content="([^"]+)"/.exec(await opened.text())![1]!;
    const login = await fetch(`${live.server.url}/ajax/realty/login/`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: demoAccount.phone, phone: demoAccount.phone, password: demoAccount.password, captcha: '' }),
    });
    expect(login.status).toBe(200);
    const signedIn = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const context = await live.browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    await context.addCookies(signedIn.split('; ').map((pair) => ({ name: pair.split('=')[0]!, value: pair.split('=').slice(1).join('='), url: live.server.url })));
    const page = await context.newPage();
    await page.goto(`${live.server.url}/pay/demo-reg`);
    expect(await page.locator('.user-name').textContent()).toBe(`${demoAccount.name} ${demoAccount.surname}`);
    expect(await page.getByRole('button', { name: messages.account.changeUser }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: messages.app.continue }).getAttribute('aria-busy')).toBe('true');
    await context.close();
  });

  test('an unknown bill: the data error, answered 404, with its title', async () => {
    const page = await firstResponse('/pay/no-such-bill');
    expect(await page.getByText(messages.app.dataError).count()).toBe(1);
    expect(await page.title()).toBe(messages.app.dataErrorTitle);
    await page.close();
  });
});

/** Console errors and warnings of a page, page errors included. */
function consoleOf(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') said.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
  return said;
}

/** The page's script has taken the server's markup over (src/mount.ts). */
const hydrated = (page: Page) => page.locator('[data-shown="hydrated"]').waitFor({ state: 'attached' });

describe('hydration', () => {
  test.each(unpaidDemos)('%s: hydrated, with nothing said in the console and no second fetch of the bill', async (oid) => {
    const { page } = await openPage();
    const said = consoleOf(page);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (/\/ajax\/(object-info|.*\/checkUser|get-user)/.test(request.url())) asked.push(request.url());
    });
    await page.goto(`${live.server.url}/pay/${oid}`);
    await hydrated(page);
    // The step's own Continue answers once hydrated (a guest's on the account route: its sign-in form's, once its code is here).
    await page.getByRole('button', { name: messages.app.continue, disabled: false }).waitFor();
    expect(said).toEqual([]);
    expect(asked).toEqual([]);
  });

  test("a paid bill's receipt and a result page hydrate quietly too", async () => {
    const { link, orderId } = await paidCopy();
    const { page } = await openPage();
    const said = consoleOf(page);
    await page.goto(`${live.server.url}/pay/${link}`);
    await hydrated(page);
    // The receipt's own code has come and taken its markup over: it moves focus to its heading.
    await page.waitForFunction(() => document.activeElement?.id === 'paid-title');
    await page.goto(`${live.server.url}/success?billOid=${link}&orderId=${orderId}`);
    await hydrated(page);
    expect(await page.getByRole('status').textContent()).toBe(stepMessages.status.success);
    expect(said).toEqual([]);
  });

  test('the e-mail typed before the page hydrated is kept, and Continue takes it on', async () => {
    const { page } = await openPage();
    const said = consoleOf(page);
    // The page's own script is held back until the payer has typed.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/main\.[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-anon')}`, { waitUntil: 'commit' });
    const email = page.getByLabel(messages.email.label);
    await email.fill('typed-early@example.com');
    const proceed = page.getByRole('button', { name: messages.app.continue });
    expect(await proceed.getAttribute('aria-busy')).toBe('true');
    release();
    await hydrated(page);
    await page.getByRole('button', { name: messages.app.continue, disabled: false }).waitFor();
    expect(await email.inputValue()).toBe('typed-early@example.com');
    // Kept for a reload like any typing: once the address bar names the step, a reload shows it again.
    await page.waitForFunction(() => window.location.hash.startsWith('#/'));
    await page.unroute(/\/assets\/main\.[^/]+\.js$/);
    await page.reload();
    await hydrated(page);
    await page.getByRole('button', { name: messages.app.continue, disabled: false }).waitFor();
    expect(await email.inputValue()).toBe('typed-early@example.com');
    await proceed.click();
    await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
    expect(await page.getByLabel(messages.email.label).inputValue()).toBe('typed-early@example.com');
    expect(said).toEqual([]);
  });

  test("a reload on a later step's address renders that step on its own: the server cannot see the address's step", async () => {
    const { page } = await openPage();
    const said = consoleOf(page);
    await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-points')}`);
    await page.getByRole('button', { name: messages.points.use }).click();
    await page.getByLabel(stepMessages.usePoints.input).fill('1000');
    await page.getByRole('button', { name: messages.points.use }).click();
    await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
    await page.reload();
    await page.locator('[data-shown="rendered"]').waitFor({ state: 'attached' });
    await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
    expect(said).toEqual([]);
  });
});
