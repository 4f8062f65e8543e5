import type { BrowserContext, Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { freshBill, payByCardFromChoose, payWithCard, toChoosePaymentType as toChoose, useLiveServer, usePages } from './harness';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages as r } from '../../src/services/receiptMessages';
import { attemptNamed } from '../../server/payments/queries';

const m = messages;

/**
 * The payment's end as a receipt and the resume after a reload, in Chromium against the real
 * server: a declined card and 'Попробовать снова' to a payment, a reload on the fast-payment step, a reload after
 * paying, and a fast-payment tab of a bill paid elsewhere.
 */

// Cold Chromium on 2 shared cores; the fast-payment journeys wait for 5000 ms status polls.
jest.setTimeout(90_000);

const live = useLiveServer();
const openPage = usePages(live);
const hash = (page: Page) => new URL(page.url()).hash;
const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 30_000 });
const receipt = (page: Page) => page.getByRole('region', { name: r.receiptTitle });

/** To the fast-payment step of a fresh bill: answers the payload of the bank-app link. */
async function toSbp(page: Page, bill: string): Promise<string> {
  await toChoose(page, live.server, bill);
  await page.getByRole('radio', { name: /СБП/ }).check();
  const paid = page.waitForResponse('**/api/getPaymentUrl/');
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  const payload = ((await (await paid).json()) as { info: { data: { payload: string } } }).info.data.payload;
  await page.getByText(stepMessages.sbp.scanQr).waitFor();
  return payload;
}

async function answerInBankApp(context: BrowserContext, payload: string, answer: 'Оплатить' | 'Отклонить') {
  const bankApp = await context.newPage();
  await bankApp.goto(payload);
  await bankApp.getByRole('button', { name: answer }).click();
  await bankApp.getByRole('status').waitFor();
  await bankApp.close();
}

test("a declined card: 'Оплатить другой картой' opens the bill on choosing, e-mail and way kept, and it pays with a receipt", async () => {
  const { page } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  await toChoose(page, live.server, bill);
  await payByCardFromChoose(page, TEST_CARDS.declined);
  await status(page, stepMessages.status.declined);

  await page.getByRole('link', { name: r.anotherCard }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  expect(new URL(page.url()).pathname).toBe(`/pay/${bill}`);
  expect(await page.getByRole('radio', { name: /Банковская карта/ }).isChecked()).toBe(true);
  expect(await page.getByLabel(m.email.label).inputValue()).toBe('payer@example.com');

  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  await payWithCard(page, TEST_CARDS.pays);
  await page.waitForURL(/\/success\?billOid=.*orderId=/);
  await status(page, stepMessages.status.success);
  await receipt(page).waitFor();
  // The return URL names the order by the acquirer's id; the receipt's order number is ours (the acquirer's orderNumber).
  const attempt = await attemptNamed(live.server.app.store, new URL(page.url()).searchParams.get('orderId')!);
  // Its start, which support recognises; the whole is copied by the button beside it.
  await receipt(page).getByText(`${attempt!.order_id.slice(0, 8)}…`).waitFor();
  await receipt(page).getByRole('button', { name: r.copyOrder }).waitFor();
  await receipt(page).getByText('pa***@example.com').waitFor();
  await receipt(page).getByText('Банковская карта').waitFor();
});

test('a reload on the fast-payment step restores the QR and its polling; paid in the bank app, the result shows the receipt', async () => {
  const { context, page } = await openPage();
  const payload = await toSbp(page, await freshBill(live.server, 'demo-anon'));
  expect(hash(page)).toBe('#/sbp');

  await page.reload();
  await page.getByRole('img', { name: stepMessages.sbp.qrAlt }).waitFor();
  expect(hash(page)).toBe('#/sbp');
  // The polling came back with it: the bank's answer reaches this tab.
  await answerInBankApp(context, payload, 'Оплатить');
  await status(page, stepMessages.status.success);
  await receipt(page).waitFor();
  expect(hash(page)).toBe('#/result');
});

test("a reload after paying shows 'Счет оплачен' with the receipt, not the data error", async () => {
  const { context, page } = await openPage();
  const payload = await toSbp(page, await freshBill(live.server, 'demo-anon'));
  await answerInBankApp(context, payload, 'Оплатить');
  await status(page, stepMessages.status.success);
  await page.reload();
  await page.getByRole('heading', { name: r.paidTitle }).waitFor();
  await receipt(page).getByText('pa***@example.com').waitFor();
  expect(await page.getByText(m.app.dataError).count()).toBe(0);
  // No step is left to show: the address bar drops '#/result'.
  await page.waitForFunction(() => window.location.hash === '');
});

test('a reload on a step that cannot be restored goes to the main route, and the address bar says so', async () => {
  const { page } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  await page.goto(`${live.server.url}/pay/${bill}#/checkSendCode`);
  await page.getByLabel(m.email.label).waitFor();
  await page.waitForFunction(() => window.location.hash === '#/noReg');
});

test('a fast-payment tab of a bill paid elsewhere says the bill is already paid, not declined', async () => {
  const { context, page } = await openPage();
  const bill = await freshBill(live.server, 'demo-anon');
  const asked = page.waitForResponse('**/api/getPaymentUrl/');
  await toSbp(page, bill);
  const qrOrder = ((await (await asked).json()) as { info: { orderId: string } }).info.orderId;
  // The acquirer fails to end the QR's order when another tab turns to the card: the QR stays open.
  const faulted = await fetch(`${live.server.url}/sandbox/rbs/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fault: 'decline-500', on: true, orderNumber: qrOrder }),
  });
  expect(faulted.status).toBe(200);
  // Paid by card in another tab meanwhile, past the notice of the payment begun there.
  const other = await context.newPage();
  await toChoose(other, live.server, bill);
  await other.getByRole('button', { name: stepMessages.choosePaymentType.openAnother }).click();
  await other.getByRole('button', { name: stepMessages.choosePaymentType.openConfirm }).click();
  await payByCardFromChoose(other, TEST_CARDS.pays);
  await status(other, stepMessages.status.success);
  await other.close();

  await status(page, r.billPaidElsewhere);
  expect(await page.getByText(stepMessages.status.declined).count()).toBe(0);
});
