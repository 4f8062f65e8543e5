import { violationsOf } from './a11y';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freshBill, launchBrowser, MOBILE, startServer, type RunningServer } from './harness';
import { stepMessages } from '../../src/services/stepMessages';

/**
 * Fast payment on a phone: choose your bank, in Chromium with an iPhone's and an Android phone's user agent
 * against the real server, its bank list and its sandbox bank app.
 */

jest.setTimeout(90_000);

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function phone(userAgent: string): Promise<BrowserContext> {
  const context = await browser.newContext({ ...MOBILE, userAgent });
  contexts.push(context);
  return context;
}

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  return page;
}

/** A fresh demo-anon bill paid by fast payment; answers the payment's real payload. */
async function payBySbp(page: Page): Promise<string> {
  await page.goto(`${server.url}/pay/${await freshBill(server, 'demo-anon')}`);
  await page.getByLabel('Email для отправки чека').fill('payer@example.com');
  await page.getByRole('button', { name: 'Продолжить' }).click();
  await page.getByRole('radio', { name: /СБП/ }).check();
  const answer = page.waitForResponse('**/api/getPaymentUrl/');
  await page.getByRole('button', { name: 'Оплатить' }).click();
  const payload = ((await (await answer).json()) as { info: { data: { payload: string } } }).info.data.payload;
  await page.getByRole('heading', { name: 'Выберите банк для оплаты' }).waitFor();
  return payload;
}

/** Up to the bank list on the fast-payment step. */
async function toBankList(page: Page): Promise<string> {
  const payload = await payBySbp(page);
  await page.getByRole('list', { name: 'Выберите банк для оплаты' }).waitFor();
  return payload;
}

const bankNames = (page: Page) => page.getByRole('list', { name: 'Выберите банк для оплаты' }).locator('.bank-name').allTextContents();

test('iPhone: Сбербанк opens its app by its scheme with the real payload; the amount is above the list', async () => {
  const page = await newPage(await phone(IPHONE));
  const payload = await toBankList(page);
  // The payload is the sandbox bank app's page for this very payment.
  expect(payload).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/sbp\/[\w-]+$/);
  expect(await (await fetch(payload)).text()).toContain('Оплата по QR-коду СБП');

  expect(await page.getByRole('link', { name: 'Сбербанк' }).getAttribute('href')).toBe(payload.replace(/^http:/, 'bank100000000111:'));
  expect(await page.getByRole('link', { name: new RegExp(`^${stepMessages.sbp.openBankApp}`) }).getAttribute('href')).toBe(payload);
  expect(await bankNames(page)).toEqual(['Сбербанк', 'Т-Банк', 'Банк ВТБ', 'АЛЬФА-БАНК', 'Райффайзенбанк', 'Газпромбанк']);
  expect(await page.locator('.sbp-amount').textContent()).toMatch(/Сумма к оплате\s*12\s345,67 руб\./);
  // The sandbox's stand-in logos are laid over the initials, on tiles of the same size.
  const marks = page.getByRole('list', { name: 'Выберите банк для оплаты' }).locator('.bank-mark');
  await marks.locator('.bank-logo.is-shown').nth(5).waitFor();
  expect(await marks.allTextContents()).toEqual(['Сб', 'Т', 'ВТБ', 'Ал', 'Ра', 'Га']);
  for (const box of await marks.evaluateAll((tiles) => tiles.map((tile) => tile.getBoundingClientRect()))) {
    expect([box.width, box.height]).toEqual([40, 40]);
  }
  // The list came from the server's own endpoint, cacheable.
  const list = await page.request.get(`${server.url}/api/sbp-banks`);
  expect(list.headers()['cache-control']).toContain('public');
});

test("in the sandbox every bank's logo is its stand-in from this server: no logo request fails, none leaves for another host, the strict CSP is kept", async () => {
  const page = await newPage(await phone(IPHONE));
  const logos: { path: string; status: number }[] = [];
  const failed: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.request().resourceType() === 'image' && url.pathname.startsWith('/api/sbp-banks/logos/')) logos.push({ path: url.pathname, status: response.status() });
  });
  page.on('requestfailed', (request) => void failed.push(request.url()));
  page.on('request', (request) => void (request.resourceType() === 'image' && !request.url().startsWith(server.url) && !request.url().startsWith('data:') && failed.push(request.url())));
  await toBankList(page);
  const list = page.getByRole('list', { name: 'Выберите банк для оплаты' });
  await list.locator('.bank-logo.is-shown').nth(5).waitFor();
  // The whole list: every logo the page asks for as the payer scrolls through it.
  await page.getByRole('button', { name: /^Все банки/ }).click();
  const rest = page.getByRole('list', { name: 'Все банки' });
  expect(await rest.getByRole('listitem').count()).toBe(186);
  await rest.locator('.bank-row').last().scrollIntoViewIfNeeded();
  await rest.locator('.bank-row').last().locator('.bank-logo.is-shown').waitFor();
  expect(logos.length).toBeGreaterThan(6);
  expect(logos.filter((logo) => logo.status !== 200)).toEqual([]);
  expect(logos.map((logo) => logo.path)).toEqual(expect.arrayContaining(['/api/sbp-banks/logos/100000000111']));
  expect(await page.locator('.bank-logo.is-shown').count()).toBeGreaterThan(6);
  expect(failed).toEqual([]);
  const reports = (await (await fetch(`${server.url}/sandbox/csp-reports`)).json()) as { count: number };
  expect(reports.count).toBe(0);
});

test("a logo that fails to load (as NSPK's may, in production) leaves the bank's initials on a tile of the same size", async () => {
  const page = await newPage(await phone(IPHONE));
  await page.route('**/api/sbp-banks/logos/**', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"success":false}' }));
  await toBankList(page);
  const marks = page.getByRole('list', { name: 'Выберите банк для оплаты' }).locator('.bank-mark');
  // Each broken logo is dropped and its initials stay.
  await page.waitForFunction(() => document.querySelectorAll('.bank-mark img').length === 0);
  expect(await marks.allTextContents()).toEqual(['Сб', 'Т', 'ВТБ', 'Ал', 'Ра', 'Га']);
  for (const box of await marks.evaluateAll((tiles) => tiles.map((tile) => tile.getBoundingClientRect()))) {
    expect([box.width, box.height]).toEqual([40, 40]);
  }
});

test('Android: Сбербанк opens by an intent for its package with the real payload', async () => {
  const page = await newPage(await phone(ANDROID));
  const payload = await toBankList(page);
  expect(await page.getByRole('link', { name: 'Сбербанк' }).getAttribute('href')).toBe(
    `intent://${payload.replace(/^http:\/\//, '')}#Intent;scheme=bank100000000111;package=ru.sberbankmobile;end`,
  );
});

test('the bank tapped last is first, and marked, on the next payment in this browser', async () => {
  const context = await phone(IPHONE);
  const page = await newPage(context);
  await toBankList(page);
  // Tapping asks the phone to open the bank's app; a browser without it stays on the page.
  await page.getByRole('link', { name: 'Т-Банк', exact: true }).click({ noWaitAfter: true });
  await page.waitForFunction(() => localStorage.getItem('checkout.sbp.lastUsedBank') === '100000000004');

  const next = await newPage(context);
  await toBankList(next);
  expect(await bankNames(next)).toEqual(['Т-Банк', 'Сбербанк', 'Банк ВТБ', 'АЛЬФА-БАНК', 'Райффайзенбанк', 'Газпромбанк']);
  await next.getByRole('link', { name: 'Т-Банк Вы платили через него в прошлый раз' }).waitFor();
  // Another browser knows nothing of it: nothing was told to the server.
  const stranger = await newPage(await phone(IPHONE));
  await toBankList(stranger);
  expect((await bankNames(stranger))[0]).toBe('Сбербанк');
});

test("search 'альфа' finds АЛЬФА-БАНК, with the count announced", async () => {
  const page = await newPage(await phone(ANDROID));
  await toBankList(page);
  const search = page.getByRole('searchbox', { name: 'Поиск банка' });
  await search.fill('альфа');
  await page.getByRole('status').filter({ hasText: 'Найден 1 банк' }).waitFor();
  const found = page.getByRole('list', { name: 'Найденные банки' });
  expect(await found.locator('.bank-name').allTextContents()).toEqual(['АЛЬФА-БАНК']);
  expect(await found.getByRole('link', { name: 'АЛЬФА-БАНК', exact: true }).getAttribute('href')).toMatch(/^intent:\/\/.*;scheme=bank100000000008;package=ru\.alfabank\.mobile\.android;end$/);
  await search.fill('пойдём');
  expect(await found.locator('.bank-name').allTextContents()).toEqual(['КБ Пойдём!']);
});

test('with the list endpoint failing the screen still offers the payload link and the QR', async () => {
  const context = await phone(IPHONE);
  await context.route('**/api/sbp-banks', (route) => route.fulfill({ status: 503, json: { success: false, error: 'Сервис недоступен' } }));
  const page = await newPage(context);
  const payload = await payBySbp(page);
  const link = page.getByRole('link', { name: 'Открыть приложение банка' });
  await link.waitFor();
  expect(await link.getAttribute('href')).toBe(payload);
  expect(await page.getByRole('list').count()).toBe(0);
  await page.getByRole('button', { name: 'Показать QR-код' }).click();
  const qr = page.getByRole('img', { name: 'QR-код для оплаты через СБП' });
  await qr.waitFor();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});

test('paying in the bank app and coming back to the checkout shows the result', async () => {
  const context = await phone(ANDROID);
  const page = await newPage(context);
  const payload = await toBankList(page);
  // The bank app, in front of the checkout; the checkout's tab is hidden meanwhile.
  const bankApp = await context.newPage();
  await bankApp.goto(payload);
  await bankApp.getByRole('button', { name: 'Оплатить' }).click();
  await bankApp.getByRole('status').waitFor();
  await page.bringToFront();
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await page.getByRole('heading', { name: 'Результат оплаты' }).waitFor({ timeout: 20_000 });
  await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 20_000 });
});

test('keyboard: from the search into the banks, and "Все банки" opens the rest in place', async () => {
  const page = await newPage(await phone(IPHONE));
  await toBankList(page);
  await page.getByRole('searchbox', { name: 'Поиск банка' }).focus();
  await page.keyboard.press('Tab');
  // The bank's link (its mark is drawn inside it, hidden from the name).
  const focusedBank = () => page.evaluate(() => document.activeElement?.querySelector('.bank-name')?.textContent);
  expect(await focusedBank()).toBe('Сбербанк');
  const all = page.getByRole('button', { name: /^Все банки/ });
  await all.focus();
  await page.keyboard.press('Enter');
  expect(await page.getByRole('button', { name: 'Свернуть список банков' }).getAttribute('aria-expanded')).toBe('true');
  const rest = page.getByRole('list', { name: 'Все банки' });
  expect(await rest.getByRole('listitem').count()).toBe(186);
  await page.keyboard.press('Tab');
  expect(await focusedBank()).toBe('АБ РОССИЯ');
});

/**
 * The banks whose name runs past its own room in the row: into the chevron's place at the app link's right, or under
 * the web client's control beside it (a long single word such as 'Райффайзенбанк' cannot wrap).
 */
const namesOverlapped = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.bank-row')].flatMap((row) => {
      const name = row.querySelector('.bank-name')!;
      const text = document.createRange();
      text.selectNodeContents(name);
      const { right } = text.getBoundingClientRect();
      const link = row.querySelector('.bank')!;
      const room = link.getBoundingClientRect().right - parseFloat(getComputedStyle(link).paddingRight);
      const web = row.querySelector('.bank-web')?.getBoundingClientRect();
      const underWeb = web && web.top < name.getBoundingClientRect().bottom && right > web.left;
      return right > room + 0.5 || underWeb ? [name.textContent] : [];
    }),
  );

describe('accessibility', () => {
  const violations = violationsOf;

  // At 320 px, the narrowest phone: a11y-mobile's walk scans the same list, search and every bank at 375 px.
  test('axe finds nothing at 320 px: the list, a search, all banks; nothing wider than the phone', async () => {
    const context = await browser.newContext({ ...MOBILE, viewport: { width: 320, height: 740 }, userAgent: IPHONE });
    contexts.push(context);
    // The last-used mark too: a bank remembered from an earlier payment.
    // Only on the checkout's own pages: a new tab's about:blank has no storage to write.
    await context.addInitScript(() => {
      if (location.protocol.startsWith('http')) localStorage.setItem('checkout.sbp.lastUsedBank', '100000000003');
    });
    const page = await newPage(context);
    await toBankList(page);
    expect((await bankNames(page))[0]).toBe('Банк Синара');
    expect(await violations(page)).toEqual([]);
    await page.getByRole('searchbox', { name: 'Поиск банка' }).fill('банк');
    await page.getByRole('status').filter({ hasText: /Найдено \d+ банк/ }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('searchbox', { name: 'Поиск банка' }).fill('');
    await page.getByRole('button', { name: /^Все банки/ }).click();
    expect(await violations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await namesOverlapped(page)).toEqual([]);
    // Three axe scans, the last of every bank in the list: the slowest test of the file on a busy machine.
  }, 180_000);
});
