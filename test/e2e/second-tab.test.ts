import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { billByOid } from '../../server/billing/queries';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { attemptsOfBill } from '../support/rows';
import { DESKTOP, freshBill, MOBILE, payWithCard, toChoosePaymentType, useLiveServer, usePages } from './harness';

/**
 * A second tab never leads to a second charge, in Chromium against the real server and its sandbox acquirer: an attempt
 * that may still be paid (a QR in another tab) is said in every tab and on every opening of the link before another way
 * is offered; going back to it shows the same QR; another way is confirmed first, and the server then ends the open
 * order at the acquirer (decline.do), so the bank app holding the first QR can no longer take the money.
 */

jest.setTimeout(120_000);

const live = useLiveServer();
const openPage = usePages(live);
const t = stepMessages.choosePaymentType;

/** The fast payment's QR in a tab: the bill's e-mail, СБП, Pay; answers the QR's bank-app link. */
async function openQr(page: Page, bill: string): Promise<string> {
  await toChoosePaymentType(page, live.server, bill);
  await page.getByRole('radio', { name: /СБП/ }).check();
  const answered = page.waitForResponse('**/api/getPaymentUrl/');
  await page.getByRole('button', { name: t.pay }).click();
  const { info } = (await (await answered).json()) as { info: { data: { payload: string } } };
  await page.getByText(stepMessages.sbp.desktopTitle).waitFor();
  return info.data.payload;
}

/** The bank app that holds the QR tries to pay it: the sandbox's fake answers as the bank would. */
const bankAppPays = (payload: string) =>
  fetch(payload, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=pay' });

describe.each([
  ['375 px', MOBILE],
  ['1280 px', DESKTOP],
] as const)('a second tab while a QR waits in the first (%s)', (_width, device) => {
  test('the open QR is said before any other way; another way is confirmed first, the QR then cannot pay, and the bill is paid once', async () => {
    const bill = await freshBill(live.server, 'demo-anon');
    const first = await openPage(DESKTOP);
    const payload = await openQr(first.page, bill);

    const second = await openPage(device);
    await toChoosePaymentType(second.page, live.server, bill);
    const notice = second.page.getByRole('status').filter({ hasText: t.openTitle });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(t.openWhat('СБП'));
    // Nothing else to pay with before the payer has decided about the open one.
    expect(await second.page.getByRole('radio').count()).toBe(0);
    expect(await second.page.getByRole('button', { name: /^Оплатить/ }).count()).toBe(0);

    await second.page.getByRole('button', { name: t.openAnother }).click();
    await second.page.getByRole('status').filter({ hasText: t.openConfirmTitle }).waitFor();
    await second.page.getByRole('button', { name: t.openConfirm }).click();
    await second.page.getByRole('radio', { name: /Банковская карта/ }).check();
    await second.page.getByRole('button', { name: t.pay }).click();
    await second.page.waitForURL(/\/sandbox\/acquirer\//);

    // The first tab's QR was ended at the acquirer: the bank app holding it can no longer pay.
    await bankAppPays(payload);
    await first.page.getByRole('status').filter({ hasText: /отклонен|уже оплачен/i }).waitFor({ timeout: 30_000 });
    await payWithCard(second.page, TEST_CARDS.pays);
    await second.page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 30_000 });

    await live.server.app.background.idle();
    const attempts = await attemptsOfBill(live.server.app.store, bill);
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual(['declined', 'success']);
    // One number to quote to support: the address names the order as the receipt does (not the acquirer's own id).
    const paidOrder = attempts.find((attempt) => attempt.status === 'success')!.order_id;
    await second.page.waitForURL((url) => url.searchParams.get('orderId') === paidOrder);
    await second.page.getByRole('region', { name: receiptMessages.receiptTitle }).getByText(`${paidOrder.slice(0, 8)}…`).waitFor();
    expect((await billByOid(live.server.app.store, bill))!.status).toBe('paid');
  });

  test("the link opened again: 'Вернуться к оплате' shows the same QR, no second order", async () => {
    const bill = await freshBill(live.server, 'demo-anon');
    const first = await openPage(DESKTOP);
    const payload = await openQr(first.page, bill);

    const again = await openPage(device);
    await toChoosePaymentType(again.page, live.server, bill);
    await again.page.getByRole('status').filter({ hasText: t.openTitle }).waitFor();
    const answered = again.page.waitForResponse('**/api/getPaymentUrl/');
    await again.page.getByRole('button', { name: t.openResume }).click();
    const { info } = (await (await answered).json()) as { info: { data: { payload: string } } };
    expect(info.data.payload).toBe(payload);
    await again.page.getByRole('link', { name: new RegExp(`^${stepMessages.sbp.openBankApp}`) }).or(again.page.getByText(stepMessages.sbp.desktopTitle)).first().waitFor();
    expect(await attemptsOfBill(live.server.app.store, bill)).toHaveLength(1);
  });
});
