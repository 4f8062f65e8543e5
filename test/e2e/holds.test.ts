import { newContext, toChoosePaymentType, payByCardFromChoose, useLiveServer, WIDTHS, type RunningServer } from './harness';
import { violationsOf } from './a11y';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { attemptNamed } from '../../server/payments/queries';
import { formatDay, formatMoney } from '../../src/services/format';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages as r } from '../../src/services/receiptMessages';

/**
 * A deposit in Chromium against the real server: a bill that captures by hand, paid by card through the sandbox
 * acquirer. The result page says the money is held (the amount, until when), no receipt; after the merchant's capture
 * the receipt; after a release 'Блокировка снята' and the way back to pay the bill again. At 375 and 1280 px, axe clean.
 */

// Cold Chromium on 2 shared cores: the card form twice, several loads of the result page and a fresh browser's visit;
// about 85 s on a quiet machine, twice that beside another journey.
jest.setTimeout(300_000);

const live = useLiveServer();

/** The merchant's call of its API, with the sandbox's key. */
async function merchant(server: RunningServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/merchant/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.app.merchant.devApiKey!}`, 'idempotency-key': `holds-${Math.random()}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** A 150 000 ₽ deposit bill that captures by hand: its link id. */
async function depositBill(server: RunningServer) {
  const bill = await merchant(server, 'POST', '/bills', { purpose: 'Бронь автомобиля', amount: { value: '150000.00', currency: 'RUB' }, capture: 'manual' });
  return new URL(bill.payUrl as string).pathname.split('/').pop()!;
}

/** Our order id of the payment on the result page (its address may name the acquirer's). */
const orderOf = async (server: RunningServer, url: string) => (await attemptNamed(server.app.store, new URL(url).searchParams.get('orderId')!))!.order_id;

for (const [device, options] of WIDTHS) {
  test(`a deposit held by card: the page says it is held, then the receipt after the capture; another released, payable again (${device} px)`, async () => {
    const context = await newContext(live.browser, options);
    const page = await context.newPage();
    const status = page.getByRole('status');
    const receipt = page.getByRole('region', { name: r.receiptTitle });

    const captured = await depositBill(live.server);
    await toChoosePaymentType(page, live.server, captured);
    // Cards only: the fast-payment system cannot hold money.
    expect(await page.getByRole('radio', { name: /СБП/ }).count()).toBe(0);
    await payByCardFromChoose(page, TEST_CARDS.pays);
    await status.filter({ hasText: r.held }).waitFor({ timeout: 30_000 });
    const orderId = await orderOf(live.server, page.url());
    const payment = await merchant(live.server, 'GET', `/payments/${orderId}`);
    const heldUntil = payment.heldUntil as string;
    // The amount held: the bill's, with the card's fee when the bill charges one.
    const heldAmount = Number((payment.amount as { value: string }).value);
    expect(heldAmount).toBeGreaterThanOrEqual(150_000);
    await page.getByText(formatMoney(heldAmount), { exact: true }).waitFor();
    await page.getByText(r.heldNote(formatDay(heldUntil)), { exact: true }).waitFor();
    expect(await receipt.count()).toBe(0);
    expect(await page.getByText(stepMessages.status.success).count()).toBe(0);
    expect(await violationsOf(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    await merchant(live.server, 'POST', `/payments/${orderId}/capture`, { amount: { value: '100000.00', currency: 'RUB' } });
    await page.reload();
    await receipt.waitFor({ timeout: 30_000 });
    await status.filter({ hasText: stepMessages.status.success }).waitFor();
    expect(await page.getByText(r.held).count()).toBe(0);
    expect(await receipt.getByText(/100\s000,00 руб\./).count()).toBeGreaterThan(0);
    expect(await violationsOf(page)).toEqual([]);

    const released = await depositBill(live.server);
    await toChoosePaymentType(page, live.server, released);
    await payByCardFromChoose(page, TEST_CARDS.pays);
    await status.filter({ hasText: r.held }).waitFor({ timeout: 30_000 });
    const releasedOrder = await orderOf(live.server, page.url());
    const releasedAmount = Number(((await merchant(live.server, 'GET', `/payments/${releasedOrder}`)).amount as { value: string }).value);
    await merchant(live.server, 'POST', `/payments/${releasedOrder}/release`);
    await page.reload();
    await status.filter({ hasText: r.released }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(r.heldNote(formatDay(heldUntil)), { exact: true }).count()).toBe(0);
    expect(await violationsOf(page)).toEqual([]);
    // The bill's plain link, opened afresh (no result page, no retry), says it too: the way and the amount held.
    const elsewhere = await newContext(live.browser, options);
    const plain = await elsewhere.newPage();
    await toChoosePaymentType(plain, live.server, released);
    const releasedNotice = plain.getByRole('status').filter({ hasText: stepMessages.choosePaymentType.releasedTitle });
    await releasedNotice.waitFor({ timeout: 30_000 });
    await releasedNotice.getByText(stepMessages.choosePaymentType.retryWhat('Банковская карта', formatMoney(releasedAmount)), { exact: true }).waitFor();
    expect(await plain.getByText(stepMessages.choosePaymentType.retryTitle).count()).toBe(0);
    expect(await violationsOf(plain)).toEqual([]);
    await elsewhere.close();
    // Back to the bill, which takes a payment again.
    await page.getByRole('link', { name: r.retry }).click();
    await page.getByRole('status').filter({ hasText: stepMessages.choosePaymentType.releasedTitle }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(stepMessages.choosePaymentType.retryTitle).count()).toBe(0);
    await page.getByRole('button', { name: new RegExp(stepMessages.choosePaymentType.pay) }).waitFor();
    expect(await violationsOf(page)).toEqual([]);
    await context.close();
  });
}
