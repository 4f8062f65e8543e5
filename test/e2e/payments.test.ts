import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { freshBill, MOBILE, payByCardFromChoose, payWithCard, toChoosePaymentType as toChoose, useLiveServer, usePages } from './harness';
import { stepMessages } from '../../src/services/stepMessages';
import { attemptNamed, attemptByOrder } from '../../server/payments/queries';


/** Every way to pay in a real browser against the reference server's sandbox. */

// A cold Chromium on 2 shared cores, and the fast-payment journey waits for a 5000 ms status poll.
jest.setTimeout(60_000);

const live = useLiveServer();
const openPage = usePages(live);
const toChoosePaymentType = (page: Page, objectOID: string) => toChoose(page, live.server, objectOID);

async function choose(page: Page, name: RegExp) {
  await page.getByRole('radio', { name }).check();
}

async function expectStatus(page: Page, text: string) {
  await page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 20_000 });
}

const widgetFrame = (page: Page) => page.frameLocator('.bank-widget-overlay iframe');

describe('card (ALL)', () => {
  test('desktop: pays with 4111…, the attempt carries the e-mail, no user, no points and manager_id from its cookie', async () => {
    const { context, page } = await openPage();
    await context.addCookies([{ name: 'manager_id', value: 'mgr-42', url: live.server.url }]);
    const bill = await freshBill(live.server, 'demo-anon');
    await toChoosePaymentType(page, bill);
    await payByCardFromChoose(page, TEST_CARDS.pays);
    expect(new URL(page.url()).pathname).toBe('/success');
    await expectStatus(page, stepMessages.status.success);
    // The acquirer's orderId, appended to our return URL: it names our attempt.
    const orderId = new URL(page.url()).searchParams.get('orderId')!;
    expect(await attemptNamed(live.server.app.store, orderId)).toMatchObject({
      bill_oid: bill,
      email: 'payer@example.com',
      user_oid: null,
      points_used: 0,
      manager_id: 'mgr-42',
      status: 'success',
    });
  });

  test('mobile: a declined card ends on the declined status', async () => {
    const { page } = await openPage(MOBILE);
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await choose(page, /Банковская карта/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).tap();
    await page.waitForURL(/\/sandbox\/acquirer\//);
    await payWithCard(page, TEST_CARDS.declined);
    await page.waitForURL(/\/fail\?billOid=.*orderId=/);
    await expectStatus(page, stepMessages.status.declined);
  });

  test('a double click on "Оплатить" makes one attempt', async () => {
    const { page } = await openPage();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    let requests = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/getPaymentUrl/')) requests++;
    });
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).dblclick();
    await page.waitForURL(/\/sandbox\/acquirer\//);
    expect(requests).toBe(1);
  });

  test('no payment URL in the answer: the payment-error message, and the payer stays to choose', async () => {
    const { page } = await openPage();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await page.route('**/api/getPaymentUrl/', (route) => route.fulfill({ json: { success: true, isClosedWithoutProcessing: false, info: { orderId: 'x' } } }));
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    await page.getByRole('alert').filter({ hasText: stepMessages.choosePaymentType.noPaymentUrl }).waitFor();
    expect(page.url()).toContain('/pay/');
    await expect(page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).isEnabled()).resolves.toBe(true);
  });
});

describe('fast payment (SBP)', () => {
  test('desktop: the QR; paying in the bank app (another tab) moves the checkout to the success status', async () => {
    const { context, page } = await openPage();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    const answer = page.waitForResponse('**/api/getPaymentUrl/');
    await choose(page, /СБП/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    const payload = ((await (await answer).json()) as { info: { data: { payload: string } } }).info.data.payload;
    await page.getByText(stepMessages.sbp.scanQr).waitFor();
    const qr = page.getByRole('img', { name: stepMessages.sbp.qrAlt });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await page.getByRole('link', { name: stepMessages.sbp.openBankApp }).count()).toBe(0);
    expect(payload).toMatch(/\/sandbox\/sbp\//);

    const bankApp = await context.newPage();
    await bankApp.goto(payload);
    await bankApp.getByRole('button', { name: 'Оплатить' }).click();
    await page.getByRole('heading', { name: stepMessages.status.resultTitle }).waitFor({ timeout: 20_000 });
    await expectStatus(page, stepMessages.status.success);
  });

  test('mobile: the bank list with "Открыть приложение банка" (the payload, for another bank) and the QR toggle; "Другой способ оплаты" goes back', async () => {
    const { page } = await openPage(MOBILE);
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await choose(page, /СБП/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).tap();
    // The bank list and its links: test/e2e/bank-choice.test.ts.
    const link = page.getByRole('link', { name: new RegExp(`^${stepMessages.sbp.openBankApp}`) });
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(/\/sandbox\/sbp\//);
    expect(await page.getByRole('img', { name: stepMessages.sbp.qrAlt }).count()).toBe(0);
    await page.getByRole('button', { name: stepMessages.sbp.showQr }).tap();
    await page.getByRole('img', { name: stepMessages.sbp.qrAlt }).waitFor();
    await page.getByRole('button', { name: stepMessages.sbp.hideQr }).tap();
    await page.getByRole('img', { name: stepMessages.sbp.qrAlt }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: stepMessages.sbp.anotherMethod }).tap();
    await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  });
});

describe('bank-app pay widget (SberPaySite)', () => {
  test('desktop: an iframe overlay; "Оплатить" inside it ends on the success page', async () => {
    const { page } = await openPage();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await choose(page, /SberPay/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    const frame = page.locator('.bank-widget-overlay iframe');
    await frame.waitFor();
    expect(await page.locator('.bank-widget-overlay').getAttribute('id')).toMatch(/^bank-widget-[0-9a-f]{16}$/);
    expect(await frame.getAttribute('sandbox')).toContain('allow-scripts');
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
    expect(new URL((await frame.getAttribute('src'))!).searchParams.get('platform')).toBe('desktop');
    // The widget shows its order once the page has answered GET_ORDERID / GET_PARAMETERS.
    await widgetFrame(page).getByText(/^Заказ /).waitFor();
    await widgetFrame(page).getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL(/\/success\?.*state=success.*bankInvoiceId=/);
    await expectStatus(page, stepMessages.status.success);
  });

  test('desktop: "Закрыть" closes the overlay, restores scrolling and lets the payer choose again', async () => {
    const { page } = await openPage();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await choose(page, /SberPay/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    await widgetFrame(page).getByRole('button', { name: 'Закрыть' }).click();
    await page.locator('.bank-widget-overlay').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).waitFor();
    expect(await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).isEnabled()).toBe(true);
  });

  test('desktop: forged messages (another origin, or the page itself) are ignored', async () => {
    const { context, page } = await openPage();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await choose(page, /SberPay/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    await widgetFrame(page).getByText(/^Заказ /).waitFor();

    // localhost and 127.0.0.1 are different origins: a page of the other one writes to our window.
    const otherOrigin = live.server.url.replace('127.0.0.1', 'localhost');
    const popupPromise = context.waitForEvent('page');
    await page.evaluate((url) => void window.open(url, 'forger'), `${otherOrigin}/sandbox/sberpay/access-cookie`);
    const forger = await popupPromise;
    await forger.waitForLoadState();
    // A marker after the forged messages from each sender: messages from one sender arrive in order, so once both
    // markers are in, the page has handled every forged one.
    await page.evaluate(() => {
      const seen = { markers: 0 };
      (window as unknown as { journeyMarkers: typeof seen }).journeyMarkers = seen;
      window.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
        if (event.data?.type === 'journey-marker') setTimeout(() => (seen.markers += 1), 0);
      });
    });
    await forger.evaluate(() => {
      window.opener.postMessage({ type: 'success', payload: { orderId: 'x' } }, '*');
      window.opener.postMessage({ type: 'OPEN_LINK', payload: { link: 'https://evil.example/' } }, '*');
      window.opener.postMessage({ type: 'journey-marker' }, '*');
    });
    await page.evaluate(() => {
      window.postMessage({ type: 'fail' }, '*');
      window.postMessage({ type: 'journey-marker' }, '*');
    });
    await page.waitForFunction(() => (window as unknown as { journeyMarkers: { markers: number } }).journeyMarkers.markers >= 2);
    expect(page.url()).toContain('/pay/');
    expect(await page.locator('.bank-widget-overlay').count()).toBe(1);

    await widgetFrame(page).getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL(/\/success\?/);
  });

  test('desktop: a widget that never initialises fails after the 20000 ms time-out', async () => {
    const { page } = await openPage();
    await page.clock.install();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await page.route('**/sandbox/sberpay/widget.js', (route) => route.abort());
    await choose(page, /SberPay/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    await page.locator('.bank-widget-overlay iframe').waitFor();
    await page.clock.fastForward(19_000);
    expect(page.url()).toContain('/pay/');
    await page.clock.fastForward(1_500);
    await page.waitForURL(/\/fail\?.*state=return/);
  });

  test('mobile: a full-page redirect with the parameter bundle; paying there returns to the success page', async () => {
    const { page } = await openPage(MOBILE);
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-anon'));
    await choose(page, /SberPay/);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).tap();
    await page.waitForURL(/\/sandbox\/sberpay\/widget\?/);
    const url = new URL(page.url());
    expect(url.searchParams.has('platform')).toBe(false);
    const bundle = JSON.parse(Buffer.from(url.searchParams.get('params')!, 'base64').toString('utf8'));
    expect(Object.keys(bundle).sort()).toEqual(['backUrl', 'bankInvoiceId', 'failUrl', 'host', 'href', 'isSafariDesktop', 'orderId', 'successUrl']);
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).tap();
    await page.waitForURL(/\/success\?.*state=success/);
    await expectStatus(page, stepMessages.status.success);
  });
});

describe('offer and agreements', () => {
  test('demo-offer: both agreements required; the link opens the offer modal; Escape closes it and focus returns', async () => {
    const { page } = await openPage();
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-offer'));
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    await page.getByText(stepMessages.choosePaymentType.offerRequired).waitFor();
    await page.getByText(stepMessages.choosePaymentType.executorRequired).waitFor();

    const link = page.getByRole('button', { name: stepMessages.agreement.aggregatorLink });
    await link.click();
    const dialog = page.getByRole('dialog', { name: stepMessages.offer.title });
    await dialog.getByText(/Оферта платежного агрегатора/).waitFor();
    expect(await page.getByRole('button', { name: stepMessages.offer.close }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.getByRole('checkbox', { name: stepMessages.choosePaymentType.aggregatorOffer }).check();
    await page.getByRole('checkbox', { name: stepMessages.choosePaymentType.executorOffer }).check();
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    await page.waitForURL(/\/sandbox\/acquirer\//);
  });

  test('the offer text failing shows "Не удалось получить информацию об оферте"', async () => {
    const { page } = await openPage(MOBILE);
    await toChoosePaymentType(page, await freshBill(live.server, 'demo-offer'));
    await page.route('**/api/offerText/', (route) => route.fulfill({ status: 500, json: { success: false, error: 'down' } }));
    await page.getByRole('button', { name: stepMessages.agreement.executorLink }).tap();
    await page.getByRole('dialog').getByText(stepMessages.choosePaymentType.offerFailed).waitFor();
    await page.getByRole('button', { name: stepMessages.offer.close }).tap();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });
});

describe('closed by points', () => {
  // The address is anyone's to type: only the server's word about the order says a bill is paid. The
  // journey that really closes a bill by points, and sees it paid, is in points-payments.test.ts.
  test('/success?withoutProcessing=1 alone, or with an order the server does not know, does not say "paid"', async () => {
    const { page } = await openPage(MOBILE);
    await page.goto(`${live.server.url}/success?withoutProcessing=1`);
    await expectStatus(page, stepMessages.status.orderNotFound);
    expect(await page.locator('#result').getByRole('status').count()).toBe(1);

    // With an order, the server is asked (its first poll's answer comes with the page), and knows no such order.
    await page.goto(`${live.server.url}/success?withoutProcessing=1&billOid=demo-anon&orderId=made-up-order`);
    const carried = JSON.parse((await page.locator('meta[name="initial-data"]').getAttribute('content')) ?? '{}') as { status?: { body: unknown } };
    expect(carried.status?.body).toEqual({ success: true, status: null });
    await expectStatus(page, stepMessages.status.orderNotFound);
    expect(await page.getByText(stepMessages.status.success).count()).toBe(0);
  });
});

describe('the sandbox widget goes back only to this origin', () => {
  /** The mobile widget page (no parent, no opener: it navigates itself) with its parameter bundle. */
  const widgetUrl = ({ orderId, bankInvoiceId }: { orderId: string; bankInvoiceId: string }, params: Record<string, string>) =>
    `${live.server.url}/sandbox/sberpay/widget?orderId=${orderId}&params=${encodeURIComponent(Buffer.from(JSON.stringify({ orderId, bankInvoiceId, ...params })).toString('base64'))}`;
  const orderOf = async (bill: string) => {
    const page = await live.server.app.inject({ method: 'GET', url: `/pay/${bill}` });
    const cookie = page.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const csrf = /<meta name=(?:"csrf-token"|csrf-token) content="([^"]+)"/.exec(page.body)![1]!;
    const answer = await live.server.app.inject({
      method: 'POST',
      url: '/api/getPaymentUrl/',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { pointsSum: null, objectOID: bill, cardTypeOID: `${bill}.SberPaySite`, email: 'payer@example.ru', userOID: null, manager_id: null },
    });
    return answer.json().info as { orderId: string; bankInvoiceId: string };
  };

  test('a backUrl, failUrl or successUrl on another site is not followed', async () => {
    const { page } = await openPage(MOBILE);
    const visitedOutside: string[] = [];
    await page.route('https://evil.example/**', (route) => {
      visitedOutside.push(route.request().url());
      return route.fulfill({ status: 200, body: 'evil' });
    });
    const order = await orderOf(await freshBill(live.server, 'demo-anon'));
    await page.goto(widgetUrl(order, { backUrl: 'https://evil.example/back', failUrl: 'https://evil.example/fail', successUrl: '//evil.example/ok' }));
    await page.getByRole('button', { name: 'Закрыть' }).tap();
    await page.getByText('Адрес возврата не принадлежит магазину: переход отменен').waitFor();
    await page.getByRole('button', { name: 'Оплатить' }).tap();
    await page.getByText('Адрес возврата не принадлежит магазину: переход отменен').waitFor();
    // The tap's handler has run (it said why it stays); a navigation it had started would end this page's script.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    expect(visitedOutside).toEqual([]);
    expect(new URL(page.url()).origin).toBe(live.server.url);
    // The payment itself went through: the bank's confirmation does not depend on where the payer goes next (the
    // product hears it through the acquirer's callback).
    await live.server.app.background.idle();
    expect((await attemptByOrder(live.server.app.store, order.orderId))!.status).toBe('success');
  });

  test('a backUrl of this origin is followed', async () => {
    const { page } = await openPage(MOBILE);
    const order = await orderOf(await freshBill(live.server, 'demo-anon'));
    await page.goto(widgetUrl(order, { backUrl: `${live.server.url}/fail?orderId=${order.orderId}&billOid=x` }));
    await page.getByRole('button', { name: 'Закрыть' }).tap();
    await page.waitForURL(/\/fail\?.*state=return/);
  });
});

