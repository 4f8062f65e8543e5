import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { attemptNamed } from '../../server/payments/queries';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages as r } from '../../src/services/receiptMessages';
import { freshBill, merchantRefund, payByCardFromChoose, toChoosePaymentType, useLiveServer, usePages } from './harness';
import { testEngine } from '../support/testDatabase';

/**
 * The payer's journeys where the engine changes what the payer sees, in Chromium against the real server on
 * PostgreSQL (the `e2e · postgres` project runs this file alone; every journey runs on SQLite in the other files): a
 * card payment, a fast payment paid in the bank app in another tab, a bill paid twice, a refund on the receipt. The
 * server suites check the rest of the store on both engines.
 */

jest.setTimeout(90_000);

const live = useLiveServer();
const openPage = usePages(live);
const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 30_000 });

test('the journeys run on PostgreSQL', () => {
  expect(testEngine()).toBe('postgres');
  expect(live.server.app.store.engine).toBe('postgres');
});

test('a card payment: the success status, and the attempt stored as paid with the e-mail', async () => {
  const { page } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  await toChoosePaymentType(page, live.server, bill);
  await payByCardFromChoose(page, TEST_CARDS.pays);
  await status(page, stepMessages.status.success);
  const orderId = new URL(page.url()).searchParams.get('orderId')!;
  expect(await attemptNamed(live.server.app.store, orderId)).toMatchObject({ bill_oid: bill, email: 'payer@example.com', status: 'success' });
});

test('a fast payment paid in the bank app (another tab): the checkout moves to the success status', async () => {
  const { context, page } = await openPage();
  await toChoosePaymentType(page, live.server, await freshBill(live.server, 'demo-anon'));
  await page.getByRole('radio', { name: /СБП/ }).check();
  const answer = page.waitForResponse('**/api/getPaymentUrl/');
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  const payload = ((await (await answer).json()) as { info: { data: { payload: string } } }).info.data.payload;
  await page.getByText(stepMessages.sbp.scanQr).waitFor();
  const bankApp = await context.newPage();
  await bankApp.goto(payload);
  await bankApp.getByRole('button', { name: 'Оплатить' }).click();
  await page.getByRole('heading', { name: stepMessages.status.resultTitle }).waitFor({ timeout: 30_000 });
  await status(page, stepMessages.status.success);
});

test('a bill paid twice: a stale tab paying a bill paid in another is told it is already paid, and nothing is charged', async () => {
  const { context, page: first } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  await toChoosePaymentType(first, live.server, bill);
  const stale = await context.newPage();
  await toChoosePaymentType(stale, live.server, bill);
  await payByCardFromChoose(first, TEST_CARDS.pays);
  await status(first, stepMessages.status.success);

  const refused = stale.waitForResponse('**/api/getPaymentUrl/');
  await stale.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  expect((await refused).status()).toBe(409);
  await stale.getByRole('heading', { name: stepMessages.choosePaymentType.alreadyPaid }).waitFor();
  const attempts = await live.server.app.store.db.selectFrom('payment_attempts').select(['status']).where('bill_oid', '=', bill).execute();
  expect(attempts).toEqual([{ status: 'success' }]);
});

test("a refund on the receipt: refunded in part, then whole, the result page says 'Возвращено', and so does the bill's link", async () => {
  const { page } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  await toChoosePaymentType(page, live.server, bill);
  await payByCardFromChoose(page, TEST_CARDS.pays);
  const receipt = page.getByRole('region', { name: r.receiptTitle });
  await receipt.waitFor({ timeout: 30_000 });
  const orderId = new URL(page.url()).searchParams.get('orderId')!;

  await merchantRefund(live.server, orderId, '2000.00');
  await page.reload();
  await receipt.getByText(r.refunded).waitFor({ timeout: 30_000 });
  await status(page, stepMessages.status.success);

  await merchantRefund(live.server, orderId);
  await page.reload();
  await status(page, /^Возвращено 12\s530,86 руб\.$/);
  await page.goto(`${live.server.url}/pay/${bill}`);
  await page.getByRole('heading', { name: /^Возвращено 12\s530,86 руб\.$/ }).waitFor({ timeout: 30_000 });
  expect(await page.getByText(r.paidTitle).count()).toBe(0);
});
