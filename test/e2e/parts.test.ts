import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../server/sandbox/acquirer';
import { messages } from '../../src/services/messages';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import { violationsOf } from './a11y';
import { DESKTOP, MOBILE, payByCardFromChoose, useLiveServer, usePages } from './harness';

/**
 * A large bill paid in two parts in Chromium: the merchant issues 2 500 000 ₽ in parts of at least 100 000 ₽ with the
 * card capped at 1 500 000 ₽ for one payment; the payer pays 1 500 000 ₽ (the card's cap), reopens the same link, sees
 * what is paid and what remains, and pays the 1 000 000 ₽ left. The merchant reads it partially paid, then paid. The
 * step with the progress is axe-clean at 1280 and 375 px.
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

/** From the bill's link to its way-to-pay step. */
async function toChooseStep(page: Page, payUrl: string) {
  await page.goto(payUrl);
  await page.getByRole('heading', { name: 'Квартира 12, предоплата' }).waitFor();
  await page.getByLabel(messages.email.label).fill('payer@example.com');
  await page.getByRole('button', { name: messages.app.continue }).click();
  await page.getByRole('heading', { name: stepMessages.choosePaymentType.title }).waitFor();
}
