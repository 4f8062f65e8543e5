import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { codeScreenPhone, freshBill, newContext, payWithCard, smsCode, typeCode, useLiveServer } from './harness';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { billByOid } from '../../server/billing/queries';
import { attemptNamed } from '../../server/payments/queries';
import { ledgerOfCustomer } from '../support/rows';

const m = messages;

/**
 * Points as a way to pay: a bill covered by points closes without a payment; points spent with the
 * remainder paid by card are written off once after the acquirer's success and not at all after a decline.
 */

const live = useLiveServer();

/** The bill's points ledger, read from the server's store: what was credited and written off. */
async function ledgerOf(objectOID: string) {
  const custNo = (await billByOid(live.server.app.store, objectOID))!.cust_no!;
  return ledgerOfCustomer(live.server.app.store, custNo);
}

/** From the bill page through the points screen and the SMS code to choosePaymentType with the points used. */
async function spendPoints(objectOID: string, points: number): Promise<Page> {
  const context = await newContext(live.browser);
  const page = await context.newPage();
  await page.goto(`${live.server.url}/pay/${objectOID}`);
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByLabel(stepMessages.usePoints.input).fill(String(points));
  await page.getByRole('button', { name: m.points.use }).click();
  await page.getByRole('heading', { name: stepMessages.code.sent }).waitFor();
  await typeCode(page, await smsCode(live.server, await codeScreenPhone(live.server, page)));
  await page.getByText(/^Использовано баллов: /).waitFor();
  await page.getByLabel(m.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: m.app.continue }).click();
  return page;
}

async function expectStatus(page: Page, text: string) {
  await page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 20_000 });
}

test('demo-cover: points cover the bill, the title says so, and Pay closes it without a payment', async () => {
  const bill = await freshBill(live.server, 'demo-cover');
  const page = await spendPoints(bill, 1500);
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.coveredByPoints }).waitFor();
  // No way to pay is chosen when points cover everything.
  expect(await page.getByRole('radio').count()).toBe(0);
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/success\?withoutProcessing=1/);
  await expectStatus(page, stepMessages.status.success);

  expect((await billByOid(live.server.app.store, bill))!.status).toBe('paid');
  expect((await ledgerOf(bill)).map((entry) => entry.delta)).toEqual([5000, -1500]);
  await page.context().close();
});

test('demo-points: 3 000 points and the rest by card; the points are written off once, after the success', async () => {
  const bill = await freshBill(live.server, 'demo-points');
  const page = await spendPoints(bill, 3000);
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  // Nothing is written off while the payment is only started.
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  expect((await ledgerOf(bill)).map((entry) => entry.delta)).toEqual([4500]);

  await payWithCard(page, TEST_CARDS.pays);
  await page.waitForURL(/\/success\?billOid=.*orderId=/);
  await expectStatus(page, stepMessages.status.success);
  const ledger = await ledgerOf(bill);
  expect(ledger.map((entry) => entry.delta)).toEqual([4500, -3000]);
  // Written off for the attempt the acquirer's orderId (appended to the return URL) names.
  expect(ledger[1]!.order_id).toBe((await attemptNamed(live.server.app.store, new URL(page.url()).searchParams.get('orderId')!))!.order_id);
  await page.context().close();
});

test('demo-points: a declined card writes no points off', async () => {
  const bill = await freshBill(live.server, 'demo-points');
  const page = await spendPoints(bill, 2000);
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  await payWithCard(page, TEST_CARDS.declined);
  await page.waitForURL(/\/fail\?billOid=.*orderId=/);
  await expectStatus(page, stepMessages.status.declined);
  expect((await ledgerOf(bill)).map((entry) => entry.delta)).toEqual([4500]);
  expect((await billByOid(live.server.app.store, bill))!.status).toBe('open');
  await page.context().close();
});
