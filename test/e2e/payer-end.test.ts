import type { BrowserContext, Page, Route } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { codeScreenPhone, DESKTOP, freshBill, MOBILE, payByCardFromChoose, smsCode, toChoosePaymentType as toChoose, useLiveServer, usePages, watchHistoryMoves } from './harness';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';

const m = messages;

/**
 * The payer's end of the journey, in Chromium against the real server: Back on the result step, a stale
 * tab's Pay, a phone typed or pasted with 8 or +7, Continue busy at once on a slow network, polling offline, the
 * bank-app overlay's Esc and focus, the code screen's focus, the start page.
 */

// Cold Chromium on 2 shared cores; the fast-payment journeys wait for 5000 ms status polls.
jest.setTimeout(60_000);

const live = useLiveServer();
const openPage = usePages(live);
const toChoosePaymentType = (page: Page, objectOID: string) => toChoose(page, live.server, objectOID);

const hash = (page: Page) => new URL(page.url()).hash;
const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 20_000 });

/** Pays the bill's fast payment on the desktop, and answers it in the sandbox bank app (another tab). */
async function sbpAnsweredInBankApp(context: BrowserContext, page: Page, answer: 'Оплатить' | 'Отклонить') {
  await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
  await page.getByRole('radio', { name: /СБП/ }).check();
  const paid = page.waitForResponse('**/api/getPaymentUrl/');
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  const payload = ((await (await paid).json()) as { info: { data: { payload: string } } }).info.data.payload;
  await page.getByText(stepMessages.sbp.scanQr).waitFor();
  const bankApp = await context.newPage();
  await bankApp.goto(payload);
  await bankApp.getByRole('button', { name: answer }).click();
  await bankApp.getByRole('status').waitFor();
  await bankApp.close();
  await page.getByRole('heading', { name: stepMessages.status.resultTitle }).waitFor({ timeout: 20_000 });
}

test("a payer who continues before the address bar's code has loaded still goes Back to the first step, not out of the page", async () => {
  const { page } = await openPage();
  // The address bar's chunk (the one script that writes history entries) is held back until the payer has stepped
  // forward, as a slow phone's network might.
  let requested!: () => void;
  const chunkAsked = new Promise<void>((resolve) => (requested = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes('pushState')) {
      requested();
      await released;
    }
    await route.fulfill({ status: response.status(), contentType: 'text/javascript', body });
  });
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-anon')}`);
  await chunkAsked;
  await page.getByLabel(m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  expect(hash(page)).toBe('');

  release();
  await page.waitForURL(/#\/choosePaymentType$/);
  await page.goBack();
  await page.getByRole('heading', { name: /^Оплата по договору/ }).waitFor();
  expect(hash(page)).toBe('#/noReg');
});

describe('Back on the result step', () => {
  test("declined: no 'Назад' on the result; 'Попробовать снова' goes to choosing another way; Forward stays there; the address bar agrees", async () => {
    const { context, page } = await openPage();
    await sbpAnsweredInBankApp(context, page, 'Отклонить');
    await status(page, stepMessages.status.declined);
    expect(hash(page)).toBe('#/result');
    await page.getByRole('button', { name: receiptMessages.retry }).waitFor();
    expect(await page.getByRole('button', { name: m.app.back }).count()).toBe(0);

    await page.getByRole('button', { name: receiptMessages.retry }).click();
    await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
    expect(hash(page)).toBe('#/choosePaymentType');

    // Forward to the result the payer left: the step on screen stays, and so does the address bar. The page undoes
    // the move forward by going back itself: two moves, the browser's and the page's, and after the page's the address
    // is the step on screen's.
    const history = await watchHistoryMoves(page);
    await page.goForward();
    expect(await history.moved(2)).toEqual(['#/result', '#/choosePaymentType']);
    expect(hash(page)).toBe('#/choosePaymentType');
    await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();

    // And the browser's Back from there goes on back, to the first step.
    await page.goBack();
    await page.getByRole('heading', { name: /^Оплата по договору/ }).waitFor();
    expect(hash(page)).toBe('#/noReg');
  });

  test("declined: the browser's Back from the result goes to choosing too, and paying again works", async () => {
    const { context, page } = await openPage();
    await sbpAnsweredInBankApp(context, page, 'Отклонить');
    await status(page, stepMessages.status.declined);
    await page.goBack();
    await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
    expect(hash(page)).toBe('#/choosePaymentType');
    await payByCardFromChoose(page, TEST_CARDS.pays);
    expect(page.url()).toContain('/success?billOid=');
    await status(page, stepMessages.status.success);
  });

  test("paid: no 'Назад', and the browser's Back keeps the result with #/result", async () => {
    const { context, page } = await openPage();
    await sbpAnsweredInBankApp(context, page, 'Оплатить');
    await status(page, stepMessages.status.success);
    expect(await page.getByRole('button', { name: m.app.back }).count()).toBe(0);
    // Once the page has handled the browser's Back, its address is the result's again.
    const history = await watchHistoryMoves(page);
    await page.goBack();
    await history.moved(1);
    expect(hash(page)).toBe('#/result');
    await page.getByRole('heading', { name: stepMessages.status.resultTitle }).waitFor();
    expect(page.url()).toContain('/pay/');
  });
});

test('a stale tab: Pay on a bill paid in another tab says it is already paid', async () => {
  const { context, page: first } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  await toChoosePaymentType(first, bill);
  const stale = await context.newPage();
  await toChoosePaymentType(stale, bill);

  await payByCardFromChoose(first, TEST_CARDS.pays);
  // The bill is paid once the acquirer's callback has been read (background work after the redirect to /success).
  await live.server.app.background.idle();

  const refused = stale.waitForResponse('**/api/getPaymentUrl/');
  await stale.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  expect((await refused).status()).toBe(409);
  await stale.getByRole('heading', { name: stepMessages.choosePaymentType.alreadyPaid }).waitFor();
  await stale.getByRole('status').filter({ hasText: stepMessages.choosePaymentType.alreadyPaidNote }).waitFor();
  expect(await stale.getByText(stepMessages.choosePaymentType.noPaymentUrl).count()).toBe(0);
  expect(await stale.getByRole('button', { name: stepMessages.choosePaymentType.pay }).count()).toBe(0);
});

describe('the phone as Russians write it (8…, +7…), typed or pasted', () => {
  async function signInWith(page: Page, enter: (field: ReturnType<Page['getByLabel']>) => Promise<void>) {
    await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-reg')}`);
    const field = page.getByLabel(stepMessages.signIn.phone, { exact: true });
    await field.waitFor();
    await enter(field);
    expect(await field.inputValue()).toBe('+7 (999) 000-00-02');
    await page.getByLabel(stepMessages.signIn.password).fill('demo-pass');
    await page.getByRole('button', { name: m.app.continue }).click();
    await page.getByText('ID: +7 (999) 000-00-02').waitFor();
  }

  test.each(['89990000002', '+79990000002'])('typed as %s: signs in to 79990000002', async (typed) => {
    const { page } = await openPage(MOBILE);
    await signInWith(page, async (field) => {
      await field.click();
      await page.keyboard.type(typed);
    });
  });

  test.each(['8 (999) 000-00-02', '+7 999 000-00-02'])('pasted as %s: signs in to 79990000002', async (pasted) => {
    const { context, page } = await openPage(DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: live.server.url });
    await signInWith(page, async (field) => {
      await field.click();
      await page.evaluate((text) => navigator.clipboard.writeText(text), pasted);
      await page.keyboard.press('Control+V');
    });
  });
});

test('Continue shows it is busy at once on a slow network, before any request or code has arrived', async () => {
  const { page } = await openPage(MOBILE);
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-anon')}`);
  await page.getByLabel(m.email.label).fill('payer@example.com');
  // From now on nothing arrives until the test lets it: no script chunk, no answer.
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/.*\.js$|\/ajax\/check-email\//, (route) => (released ? route.continue() : void held.push(route)));
  const button = page.getByRole('button', { name: m.app.continue });
  await button.click();
  await page.waitForFunction(() => document.querySelector('button[aria-busy="true"]') !== null);
  expect(await button.getAttribute('aria-busy')).toBe('true');
  expect(await button.locator('.spinner').count()).toBe(1);
  // Let everything through: the next step comes.
  released = true;
  await Promise.all(held.map((route) => route.continue()));
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
});

test("polling offline says 'Нет соединения — …' and asks at once when the connection is back", async () => {
  const { context, page } = await openPage();
  await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
  await page.getByRole('radio', { name: /СБП/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await status(page, stepMessages.status.created);
  await context.setOffline(true);
  await status(page, stepMessages.status.offline);
  const asked = page.waitForRequest('**/api/getResult/');
  await context.setOffline(false);
  await asked;
  await status(page, stepMessages.status.created);
});

test.each([
  ['375', MOBILE],
  ['1280', DESKTOP],
])("offline on the fast-payment step at %s px: 'Нет соединения — …' at the top of the step, in view and in a live region, above the bank list or the QR", async (_width, device) => {
  const { context, page } = await openPage(device);
  await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
  await page.getByRole('radio', { name: /СБП/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  const sbpStep = page.locator('section[aria-labelledby="step-title"]');
  await sbpStep.locator('.sbp-amount').waitFor();
  if (device === MOBILE) await page.getByRole('list', { name: 'Выберите банк для оплаты' }).waitFor();
  await context.setOffline(true);
  const notice = page.getByRole('status').filter({ hasText: stepMessages.status.offline });
  await notice.waitFor();
  // The live region that says it is the step's first after its heading, and it is on screen where the payer looks.
  expect(await notice.evaluate((region) => region.getAttribute('aria-live') === 'polite' && region.previousElementSibling?.id === 'step-title')).toBe(true);
  const box = (await notice.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  expect(box.y).toBeLessThan((await sbpStep.locator('.sbp-amount').boundingBox())!.y);
  // Said once: the status block below keeps quiet about it.
  expect(await page.getByText(stepMessages.status.offline).count()).toBe(1);
  await context.setOffline(false);
  await notice.waitFor({ state: 'detached' });
});

test('the bank-app overlay keeps focus inside and closes on Esc; Pay works again', async () => {
  const { page } = await openPage();
  await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
  await page.getByRole('radio', { name: /SberPay/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  const dialog = page.getByRole('dialog', { name: stepMessages.widget.title });
  await page.frameLocator('.bank-widget-overlay iframe').getByText(/^Заказ /).waitFor();
  const close = dialog.getByRole('button', { name: stepMessages.widget.close });
  expect(await close.evaluate((element) => element === document.activeElement)).toBe(true);
  // The page behind is out of reach: Tab never lands on it.
  for (let presses = 0; presses < 6; presses += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#root'))).toBe(false);
  }
  await close.focus();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
  const pay = page.getByRole('button', { name: stepMessages.choosePaymentType.pay });
  await pay.waitFor();
  expect(await pay.isEnabled()).toBe(true);
});

test('the code screen opens with focus in the first box', async () => {
  const { page } = await openPage(MOBILE);
  await page.goto(`${live.server.url}/pay/${await freshBill(live.server, 'demo-points')}`);
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByRole('heading', { name: m.points.blockTitle }).waitFor();
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  await page.waitForFunction((label) => document.activeElement?.getAttribute('aria-label') === label, stepMessages.code.digit(1));
  // Typing goes straight into the code.
  await page.keyboard.type(await smsCode(live.server, await codeScreenPhone(live.server, page)));
  await page.getByText(/^Использовано баллов: /).waitFor();
});

test('the start page links the demo bills and a fresh copy opens its checkout', async () => {
  const { page } = await openPage(MOBILE);
  await page.goto(`${live.server.url}/`);
  await page.getByRole('heading', { name: 'Онлайн-оплата счетов: демо' }).waitFor();
  await page.getByRole('listitem').filter({ hasText: 'demo-anon' }).getByRole('button', { name: 'Новая копия счета' }).click();
  await page.waitForURL(/\/pay\/demo-anon-[0-9a-f]{12}/);
  await page.getByLabel(m.email.label).waitFor();
  expect(await page.getByRole('banner').textContent()).toContain('ООО «Демо Девелопмент»');
});
