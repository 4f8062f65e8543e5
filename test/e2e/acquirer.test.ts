import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { freshBill, payWithCard, toChoosePaymentType as toChoose, useLiveServer, usePages } from './harness';
import { formatMoney } from '../../src/services/format';
import { stepMessages } from '../../src/services/stepMessages';
import { billByOid } from '../../server/billing/queries';
import { attemptByOrder } from '../../server/payments/queries';
import { attemptsOfBill, exchangesOfAttempt, refundsStateOf } from '../support/rows';

/**
 * The acquirer's bad days, in a real browser against the server and its sandbox's RBS fake (reached over HTTP): a lost
 * callback, an acquirer answering 500, a bill paid twice. The fault switches are the sandbox's (POST /sandbox/rbs/faults).
 */

// A cold Chromium on 2 shared cores; a lost callback is learnt on a poll a few seconds later.
jest.setTimeout(90_000);

// No sweeper: these journeys count the acquirer's exchanges, and a sweep landing mid-journey would add a read.
const live = useLiveServer(() => ({ sweepEveryMs: 0 }));
const openPage = usePages(live);
const toChoosePaymentType = (page: Page, objectOID: string) => toChoose(page, live.server, objectOID);

async function fault(name: string, on: boolean, orderNumber?: string) {
  const answer = await fetch(`${live.server.url}/sandbox/rbs/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fault: name, on, ...(orderNumber ? { orderNumber } : {}) }),
  });
  expect(answer.status).toBe(200);
}

const methodsOf = async (orderId: string) => (await exchangesOfAttempt(live.server.app.store, orderId)).map((e) => e.method);

async function expectStatus(page: Page, text: string) {
  await page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 30_000 });
}

async function startCard(page: Page, bill: string): Promise<string> {
  await toChoosePaymentType(page, bill);
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  // The page has gone to the acquirer's form: the attempt it started is the bill's only one.
  const [attempt] = await attemptsOfBill(live.server.app.store, bill);
  return attempt!.order_id;
}

test('a lost callback: the result page still ends on success, the server having asked the acquirer itself', async () => {
  const { page } = await openPage();
  const orderId = await startCard(page, await freshBill(live.server, 'demo-anon'));
  await fault('callback-lost', true, orderId);
  await payWithCard(page, TEST_CARDS.pays);
  await page.waitForURL(/\/success\?billOid=.*orderId=/);
  await expectStatus(page, stepMessages.status.success);
  // No callback came: the only reads of the order's status are the poll's.
  const exchanges = await exchangesOfAttempt(live.server.app.store, orderId);
  expect(exchanges.map((e) => e.method)).toEqual(['register.do', 'getOrderStatusExtended.do']);
});

test('the acquirer answers 500 on Pay: the message, the payer stays; once it is back Pay leads to a success', async () => {
  const { page } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  await toChoosePaymentType(page, bill);
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await fault('register-500', true);
  try {
    await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
    await page.getByRole('alert').filter({ hasText: stepMessages.choosePaymentType.noPaymentUrl }).waitFor();
    expect(page.url()).toContain('/pay/');
  } finally {
    await fault('register-500', false);
  }
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  await payWithCard(page, TEST_CARDS.pays);
  await expectStatus(page, stepMessages.status.success);
  // The attempt of the failed Pay was kept and paid: one attempt, one order at the acquirer.
  const attempts = await attemptsOfBill(live.server.app.store, bill);
  expect(attempts.map((a) => a.status)).toEqual(['success']);
});

test('paid twice all the same (decline.do failing while a card form is open in another tab): one success, the other refunded at the acquirer, and its payer told how much goes back and where', async () => {
  const bill = await freshBill(live.server, 'demo-anon');
  const first = await openPage();
  const cardOrder = await startCard(first.page, bill);
  // The acquirer cannot end the open card order: its form stays payable.
  await fault('decline-500', true, cardOrder);

  const second = await openPage();
  await toChoosePaymentType(second.page, bill);
  await second.page.getByRole('button', { name: stepMessages.choosePaymentType.openAnother }).click();
  await second.page.getByRole('button', { name: stepMessages.choosePaymentType.openConfirm }).click();
  await second.page.getByRole('radio', { name: /СБП/ }).check();
  const answered = second.page.waitForResponse('**/api/getPaymentUrl/');
  await second.page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  const payload = ((await (await answered).json()) as { info: { data: { payload: string } } }).info.data.payload;
  expect(await methodsOf(cardOrder)).toContain('decline.do');
  const bankApp = await second.context.newPage();
  await bankApp.goto(payload);
  await bankApp.getByRole('button', { name: 'Оплатить' }).click();
  await bankApp.getByRole('status').waitFor();
  await expectStatus(second.page, stepMessages.status.success);

  // The first tab's card form was open all along: its payment comes after the bill was paid, and goes back.
  await payWithCard(first.page, TEST_CARDS.pays);
  await expectStatus(first.page, stepMessages.status.refundedTo(formatMoney(12_530.86), 'card'));
  expect(await first.page.getByText(stepMessages.status.success).count()).toBe(0);
  // The page may say 'refunded' before the refund itself is back from the acquirer (a background job).
  await live.server.app.background.idle();
  const refunded = (await attemptByOrder(live.server.app.store, cardOrder))!;
  expect(refunded).toMatchObject({ status: 'refunded' });
  expect(await refundsStateOf(live.server.app.store, cardOrder)).toMatchObject([{ kind: 'automatic', status: 'succeeded' }]);
  expect(await live.server.app.rbsFake!.order({ orderId: refunded.acquirer_order_id! })).toMatchObject({ order_status: 4 });
  expect((await billByOid(live.server.app.store, bill))!.paid_order_id).not.toBe(cardOrder);
});
