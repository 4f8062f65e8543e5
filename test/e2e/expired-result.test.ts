import type { BrowserContext, Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { formatMoney } from '../../src/services/format';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { violationsOf } from './a11y';
import { freshBill, MOBILE, payWithCard, toChoosePaymentType, useLiveServer, usePages, type RunningServer } from './harness';

/*
 * A bill whose deadline passed while its payer was paying is told as it is on the payment's result too: 'Срок оплаты
 * счета истек' with the merchant's support, on the /fail and /success addresses the bank sends the payer back to and on
 * the checkout's own result after a fast payment. Never a guess that it may be paid, never advice to try another way
 * (none can help).
 */

jest.setTimeout(90_000);

const live = useLiveServer();
const openPage = usePages(live);
const r = receiptMessages;

/** The bill's deadline passes now (the expiry sweep has not closed it yet: the server refuses it all the same). */
async function expire(server: RunningServer, link: string) {
  await server.app.store.db.updateTable('bills').set({ expires_at: server.app.store.now() - 1000 }).where('link_id', '=', link).execute();
}

/** The way-to-pay step of a fresh demo bill, the way chosen and Pay pressed; the bill expires once Pay has its answer. */
async function payThenExpire(page: Page, way: RegExp) {
  const link = await freshBill(live.server, 'demo-anon');
  await toChoosePaymentType(page, live.server, link);
  await page.getByRole('radio', { name: way }).check();
  const asked = page.waitForResponse('**/api/getPaymentUrl/');
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).tap();
  // A card's answer sends the browser on at once: its body is read only where the page stays (a fast payment).
  const answer = await asked;
  await expire(live.server, link);
  return answer;
}

/** The result says the bill expired, with the merchant's support, and offers nothing else to try. */
async function toldExpired(page: Page) {
  await page.getByRole('status').filter({ hasText: messages.closed.expired }).waitFor({ timeout: 30_000 });
  await page.getByRole('main').getByRole('link', { name: '+7 (800) 555-01-00' }).waitFor();
  const main = (await page.getByRole('main').textContent()) ?? '';
  expect(main).not.toContain('возможно, документ уже оплачен');
  expect(main).not.toContain(stepMessages.status.declined);
  expect(main).not.toContain('Счет уже');
  for (const tryAgain of [r.retry, r.anotherCard, r.fastPayment, r.fastPaymentNoFee]) expect(await page.getByText(tryAgain).count()).toBe(0);
  // The decline's own advice (another card, another way) is no help either.
  expect(await page.locator('.declined-advice').count()).toBe(0);
  expect(await page.getByRole('button', { name: messages.app.back }).count()).toBe(0);
  expect(await violationsOf(page)).toEqual([]);
}

describe('at 375 px, a bill that expired while its payer was paying', () => {
  test('/fail: the card declined after the deadline says the bill expired, nothing was taken, whom to ask', async () => {
    const { page } = await openPage(MOBILE);
    await payThenExpire(page, /Банковская карта/);
    await page.waitForURL(/\/sandbox\/acquirer\//);
    await payWithCard(page, TEST_CARDS.declined);
    await page.waitForURL(/\/fail\?billOid=.*orderId=/);
    await toldExpired(page);
    expect(await page.getByText(r.closedNotTaken).isVisible()).toBe(true);
    // A reload of the address says the same.
    await page.reload();
    await toldExpired(page);
  });

  test('/success: a card paid after the deadline says the bill expired and the money goes back, whom to ask', async () => {
    const { page } = await openPage(MOBILE);
    await payThenExpire(page, /Банковская карта/);
    await page.waitForURL(/\/sandbox\/acquirer\//);
    await payWithCard(page, TEST_CARDS.pays);
    await page.waitForURL(/\/(success|fail)\?billOid=.*orderId=/);
    await toldExpired(page);
    await page.getByText(/^Этот платеж возвращен: .* вернутся на карту в течение 7 рабочих дней\.$/).waitFor({ timeout: 30_000 });
    expect(await page.getByText(stepMessages.status.success).count()).toBe(0);
  });

  test('the checkout’s own result after a fast payment declined in the bank app says the bill expired', async () => {
    const { context, page } = await openPage(MOBILE);
    const answer = (await (await payThenExpire(page, /СБП/)).json()) as { info: { data: { payload: string } } };
    await page.waitForURL(/#\/sbp$/);
    await answerInBankApp(context, answer.info.data.payload, 'Отклонить');
    await page.getByRole('heading', { name: stepMessages.status.resultTitle }).waitFor({ timeout: 30_000 });
    await toldExpired(page);
    expect(await page.getByText(formatMoney(0)).count()).toBe(0);
  });
});

/** The sandbox bank app (another tab) answers the fast payment. */
async function answerInBankApp(context: BrowserContext, payload: string, answer: 'Оплатить' | 'Отклонить') {
  const bankApp = await context.newPage();
  await bankApp.goto(payload);
  await bankApp.getByRole('button', { name: answer }).click();
  await bankApp.getByRole('status').waitFor();
  await bankApp.close();
}
