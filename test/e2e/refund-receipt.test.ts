import { freshBill, merchantRefund, newContext, payByCardFromChoose, toChoosePaymentType, useLiveServer, WIDTHS } from './harness';
import { violationsOf } from './a11y';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages as r } from '../../src/services/receiptMessages';

/**
 * A refunded payment's receipt in Chromium against the real server: the merchant refunds a part through its API (made
 * at the sandbox acquirer), then the rest. The result page, reloaded, says what went back and when; given back whole it
 * says 'Возвращено N руб.' and nowhere 'Оплачено', and so does the bill's link. At 375 and 1280 px, axe clean.
 */

// Cold Chromium on 2 shared cores: the card form and three loads of the result page.
jest.setTimeout(90_000);

const live = useLiveServer();

for (const [device, options] of WIDTHS) {
  test(`a payment refunded in part, then whole: the receipt says 'Возвращено' with the date (${device} px)`, async () => {
    const context = await newContext(live.browser, options);
    const page = await context.newPage();
    const bill = await freshBill(live.server, 'demo-anon');
    await toChoosePaymentType(page, live.server, bill);
    await payByCardFromChoose(page, TEST_CARDS.pays);
    const receipt = page.getByRole('region', { name: r.receiptTitle });
    await receipt.waitFor({ timeout: 30_000 });
    const orderId = new URL(page.url()).searchParams.get('orderId')!;

    await merchantRefund(live.server, orderId, '2000.00');
    await page.reload();
    await receipt.getByText(r.refunded).waitFor({ timeout: 30_000 });
    await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor();
    const refundedRow = receipt.locator('div', { has: page.getByText(r.refunded, { exact: true }) }).last();
    expect(await refundedRow.textContent()).toMatch(/^Возвращено2\s000,00 руб\., \d{1,2} [а-я]+ \d{4} г\. в \d{2}:\d{2} МСК$/);
    expect(await violationsOf(page)).toEqual([]);

    // The rest: 12 345.67 and the card's 185.19 fee.
    await merchantRefund(live.server, orderId);
    await page.reload();
    await page.getByRole('status').filter({ hasText: /^Возвращено 12\s530,86 руб\.$/ }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(r.amount, { exact: true }).count()).toBe(0);
    expect(await page.getByText(stepMessages.status.success).count()).toBe(0);
    await receipt.getByText(r.paymentAmount, { exact: true }).waitFor();
    expect(await violationsOf(page)).toEqual([]);

    // The bill's link: not 'Счет оплачен', but what went back.
    await page.goto(`${live.server.url}/pay/${bill}`);
    await page.getByRole('heading', { name: /^Возвращено 12\s530,86 руб\.$/ }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(r.paidTitle).count()).toBe(0);
    expect(await violationsOf(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await context.close();
  });
}
