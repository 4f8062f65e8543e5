import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { attemptNamed } from '../../server/payments/queries';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { DESKTOP, freshBill, MOBILE, payWithCard, toChoosePaymentType, useLiveServer, usePages } from './harness';

/**
 * The payer back on the result page from the bank's card form or bank-app pay, at the payer's own pace of polls
 * (5000 ms). The server reads the payment's status as the page is asked for; here the bank's callback is lost, so that
 * read is always from before the bank's word (as it is whenever the callback is slower than the payer's browser), and
 * the page's own first read is what brings the answer.
 */

jest.setTimeout(60_000);

const live = useLiveServer(() => ({ pagePollMs: null, reconcileAfterMs: 0 }));
const openPage = usePages(live);

beforeAll(() => live.server.app.rbsFake!.setFault('callback-lost', true));

/**
 * The page's status reads go to the server only once it knows how the payment ended (it asks the bank in the
 * background, the callback being lost): a read is then sure to find the bank's word.
 */
async function readsOnceSettled(page: Page) {
  const reads: string[] = [];
  await page.route('**/api/getResult/', async (route) => {
    const orderId = new URL(page.url()).searchParams.get('orderId')!;
    for (;;) {
      const attempt = await attemptNamed(live.server.app.store, orderId);
      if (attempt && attempt.status !== 'created') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    reads.push(orderId);
    await route.continue();
  });
  return reads;
}

/** Every text the page's live status regions said, from the first HTML on. */
async function recordStatuses(page: Page) {
  await page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { statusesSaid: string[] }).statusesSaid = said;
    const note = () => document.querySelectorAll('[role="status"]').forEach((region) => region.textContent && said.push(region.textContent));
    new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { statusesSaid: string[] }).statusesSaid);
}

test("1280: a declined card, the server's read from before the bank's word: 'Платеж отклонен' comes with the page's own read at once, the clock standing still", async () => {
  const { page } = await openPage(DESKTOP);
  await toChoosePaymentType(page, live.server, await freshBill(live.server, 'demo-anon'));
  await page.clock.install();
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).click();
  await page.waitForURL(/\/sandbox\/acquirer\//);
  // From here the page's time moves only as the journey moves it.
  await page.clock.pauseAt(Date.now() + 1000);
  const reads = await readsOnceSettled(page);
  const firstHtml = page.waitForResponse((response) => new URL(response.url()).pathname === '/fail');
  await payWithCard(page, TEST_CARDS.declined);
  await page.waitForURL(/\/fail\?billOid=.*orderId=/);
  // The page came with the server's read, from before the bank's word: a payment still waiting.
  expect(await (await firstHtml).text()).toContain(stepMessages.status.created);
  // The page's clock moves only as the journey moves it, never as far as the 5000 ms interval: enough for the page's
  // scripts to start (their boot waits a task after the first paint), too little for a poll that waits its turn.
  const declined = page.getByRole('status').filter({ hasText: stepMessages.status.declined });
  for (let moved = 0; moved < 3000 && !(await declined.isVisible()); moved += 100) await page.clock.runFor(100);
  await declined.waitFor();
  expect(reads).toHaveLength(1);
});

test("375: bank-app pay declined in the bank's app: one answer, 'Платеж отклонен', never 'Оплата отменена' before it", async () => {
  const { page } = await openPage(MOBILE);
  const said = await recordStatuses(page);
  await toChoosePaymentType(page, live.server, await freshBill(live.server, 'demo-anon'));
  await page.getByRole('radio', { name: /SberPay/ }).check();
  await page.getByRole('button', { name: stepMessages.choosePaymentType.pay }).tap();
  await page.waitForURL(/\/sandbox\/sberpay\/widget\?/);
  const reads = await readsOnceSettled(page);
  const firstHtml = page.waitForResponse((response) => /^\/(fail|success)$/.test(new URL(response.url()).pathname));
  await page.getByRole('button', { name: 'Отклонить' }).tap();
  await page.waitForURL(/\/(fail|success)\?.*state=return/);
  const html = await (await firstHtml).text();
  await page.getByRole('status').filter({ hasText: stepMessages.status.declined }).waitFor();
  expect(reads).toHaveLength(1);
  expect(html).not.toContain(receiptMessages.cancelled);
  expect((await said()).filter((text) => text.includes(receiptMessages.cancelled))).toEqual([]);
  expect(await page.getByText(receiptMessages.cancelledNote).count()).toBe(0);
});
