import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { webhookEvents } from '../support/rows';
import { violationsOf } from './a11y';
import { DESKTOP, MOBILE, payByCardFromChoose, useLiveServer, usePages } from './harness';

/**
 * A large bill paid in two parts in Chromium: the merchant issues 2 500 000 ₽ in parts of at least 100 000 ₽ with the
 * card capped at 1 500 000 ₽ for one payment; the payer pays 1 500 000 ₽ (the card's cap), reopens the same link, sees
 * what is paid and what remains, and pays the 1 000 000 ₽ left. The merchant reads it partially paid, then paid. The
 * step with the progress is axe-clean at 1280 and 375 px. And on a phone: 1 000 000 ₽ by the fast-payment system (its
 * cap), then the 1 500 000 ₽ left by card; the merchant hears both parts, and each order's receipt adds up to its part.
 */

jest.setTimeout(180_000);

const live = useLiveServer();
const openPage = usePages(live);

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${live.server.url}/merchant/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${live.server.app.merchant.devApiKey}`, ...(init.headers as Record<string, string>) },
  });

const rub = (value: string) => ({ value, currency: 'RUB' });
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

test('a 2 500 000 ₽ bill paid by card in two parts on the same link', async () => {
  const created = await api('/bills', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      purpose: 'Квартира 12, предоплата',
      amount: rub('2500000.00'),
      parts: { minimum: rub('100000.00') },
      paymentTypes: [{ code: 'ALL', name: 'Банковская карта', maximum: rub('1500000.00') }],
    }),
  });
  expect(created.status).toBe(201);
  const bill = (await created.json()) as { objectOID: string; payUrl: string };
  const read = async () => (await (await api(`/bills/${bill.objectOID}`)).json()) as { status: string; paid: { value: string }; remaining: { value: string } };

  const { page } = await openPage(DESKTOP);
  const { page: phone } = await openPage(MOBILE);
  for (const [paid, remaining, part] of [
    ['0,00', '2 500 000,00', '1 500 000,00'],
    ['1 500 000,00', '1 000 000,00', '1 000 000,00'],
  ] as const) {
    await toChooseStep(phone, bill.payUrl);
    expect(await violationsOf(phone)).toEqual([]);
    await toChooseStep(page, bill.payUrl);
    const progress = plain(await page.locator('.parts-progress').textContent());
    expect(progress).toContain(`Оплачено ${paid} из 2 500 000,00 руб.`);
    expect(progress).toContain(`Осталось оплатить ${remaining} руб.`);
    // The card's cap lowers the first part, and the step says so.
    if (part !== remaining) expect(plain(await page.locator('.payment-types').textContent())).toContain('Картой — не больше 1 500 000,00 руб. за один платеж');
    expect(plain(await page.getByRole('button', { name: /Оплатить/ }).textContent())).toBe(`Оплатить ${part} руб.`);
    expect(await violationsOf(page)).toEqual([]);
    await payByCardFromChoose(page, TEST_CARDS.pays);
    await page.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 30_000 });
    const now = await read();
    expect(now.status).toBe(remaining === part ? 'paid' : 'partially_paid');
    if (remaining !== part) {
      // The part's result says what remains, and its button opens the bill again for the next part.
      expect(plain(await page.locator('.result-note').filter({ hasText: 'Осталось оплатить' }).textContent())).toBe('Осталось оплатить 1 000 000,00 руб.');
      await page.getByRole('link', { name: receiptMessages.nextPart }).click();
      await page.getByRole('heading', { name: 'Квартира 12, предоплата' }).waitFor();
    } else {
      expect(await page.getByRole('link', { name: receiptMessages.nextPart }).count()).toBe(0);
    }
  }
  expect(await read()).toMatchObject({ status: 'paid', paid: rub('2500000.00'), remaining: rub('0.00') });
});

test('on a phone (375 px): 1 000 000 ₽ by the fast-payment system, then the 1 500 000 ₽ left by card', async () => {
  const created = await api('/bills', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({
      purpose: 'Квартира 12, предоплата',
      amount: rub('2500000.00'),
      parts: { minimum: rub('100000.00') },
      paymentTypes: [
        { code: 'ALL', name: 'Банковская карта' },
        { code: 'SBP', name: 'СБП' },
      ],
      items: [
        { name: 'Квартира 12', quantity: 1, price: rub('2000000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
        { name: 'Кладовая 3', quantity: 2.5, price: rub('200000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
      ],
    }),
  });
  expect(created.status).toBe(201);
  const bill = (await created.json()) as { objectOID: string; payUrl: string };
  const read = async () => (await (await api(`/bills/${bill.objectOID}`)).json()) as { status: string; paid: { value: string }; remaining: { value: string }; payments: { orderId: string; method: string; part: { value: string } }[] };
  const { context, page: phone } = await openPage(MOBILE);

  // The fast-payment system: its cap is the part, and the step says so.
  await toChooseStep(phone, bill.payUrl);
  await phone.getByRole('radio', { name: /СБП/ }).check();
  expect(plain(await phone.locator('.payment-types').textContent())).toContain('Через СБП — не больше 1 000 000,00 руб. за один платеж');
  expect(plain(await phone.getByRole('button', { name: /Оплатить/ }).textContent())).toBe('Оплатить 1 000 000,00 руб.');
  const answer = phone.waitForResponse('**/api/getPaymentUrl/');
  await phone.getByRole('button', { name: /Оплатить/ }).tap();
  const payload = ((await (await answer).json()) as { info: { data: { payload: string } } }).info.data.payload;
  // Paid in the bank's app (another tab); the checkout hears it and shows what remains.
  const bankApp = await context.newPage();
  await bankApp.goto(payload);
  await bankApp.getByRole('button', { name: 'Оплатить' }).click();
  await phone.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 30_000 });
  expect(plain(await phone.locator('.result-note').filter({ hasText: 'Осталось оплатить' }).textContent())).toBe('Осталось оплатить 1 500 000,00 руб.');
  expect(await read()).toMatchObject({ status: 'partially_paid', paid: rub('1000000.00'), remaining: rub('1500000.00') });

  // The next part on the same link: the progress, then the rest by card.
  await phone.getByRole('link', { name: receiptMessages.nextPart }).tap();
  await phone.getByRole('heading', { name: 'Квартира 12, предоплата' }).waitFor();
  await phone.getByLabel(messages.email.label).fill('payer@example.com');
  await phone.getByRole('button', { name: messages.app.continue }).tap();
  await phone.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
  const progress = plain(await phone.locator('.parts-progress').textContent());
  expect(progress).toContain('Оплачено 1 000 000,00 из 2 500 000,00 руб.');
  expect(progress).toContain('Осталось оплатить 1 500 000,00 руб.');
  await phone.getByRole('radio', { name: /Банковская карта/ }).check();
  expect(plain(await phone.getByRole('button', { name: /Оплатить/ }).textContent())).toBe('Оплатить 1 500 000,00 руб.');
  expect(await violationsOf(phone)).toEqual([]);
  await payByCardFromChoose(phone, TEST_CARDS.pays);
  await phone.getByRole('status').filter({ hasText: stepMessages.status.success }).waitFor({ timeout: 30_000 });
  expect(await phone.getByRole('link', { name: receiptMessages.nextPart }).count()).toBe(0);

  // The merchant: partially paid, then paid, with both webhooks; each order's receipt adds up to its part.
  const paid = await read();
  expect(paid).toMatchObject({ status: 'paid', paid: rub('2500000.00'), remaining: rub('0.00') });
  expect(paid.payments.map((payment) => [payment.method, payment.part.value])).toEqual([
    ['SBP', '1000000.00'],
    ['ALL', '1500000.00'],
  ]);
  const told = (await webhookEvents(live.server.app.store, 200)).reverse().filter((event) => JSON.parse(event.payload).data.objectOID === bill.objectOID);
  expect(told.map((event) => event.type).filter((type) => type.startsWith('bill.'))).toEqual(['bill.partially_paid', 'bill.paid']);
  for (const payment of paid.payments) {
    const receipt = ((await (await api(`/payments/${payment.orderId}`)).json()) as { receipt: { items: { amount: { value: string } }[] } }).receipt;
    expect(receipt.items.reduce((sum, item) => sum + Math.round(Number(item.amount.value) * 100), 0)).toBe(Math.round(Number(payment.part.value) * 100));
  }
  // A third payment is not offered: the link shows the bill paid, with no way to pay.
  await phone.goto(bill.payUrl);
  await phone.getByRole('heading', { name: receiptMessages.paidTitle }).waitFor();
  expect(await phone.getByRole('button', { name: /Оплатить/ }).count()).toBe(0);
});

/** From the bill's link to its way-to-pay step. */
async function toChooseStep(page: Page, payUrl: string) {
  await page.goto(payUrl);
  await page.getByRole('heading', { name: 'Квартира 12, предоплата' }).waitFor();
  await page.getByLabel(messages.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: messages.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
}
