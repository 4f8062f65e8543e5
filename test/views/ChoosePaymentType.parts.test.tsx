import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stepMessages } from '../../src/services/stepMessages';
import { ChoosePaymentType } from '../../src/views/ChoosePaymentType';
import { aType } from '../fixtures/billBuilder';
import { PAY } from '../fixtures/payButton';
import { billWithEmail, checkoutAtChoose } from './payments.fixture';

/**
 * A large bill on the way-to-pay step: paid in parts, it says what is paid and what remains, and the payment is what
 * remains or the chosen way's cap when that is lower; without parts, a way capped below the whole cannot pay it.
 */
const t = stepMessages.choosePaymentType;
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u00a0/g, ' ');
const summary = (term: string) => plain(screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent);

const ways = () => [
  aType({ OID: 'type-card', Code: 'ALL', Name: 'Банковская карта', CommissionSumm: 0 }),
  aType({ OID: 'type-sbp', Code: 'SBP', Name: 'СБП', CommissionSumm: 0, Maximum: 1_000_000 }),
];

const partsBill = (paid: number) =>
  billWithEmail({ info: { Summ: 2_500_000 }, cardTypes: ways(), parts: { minimum: 50_000, paid, remaining: 2_500_000 - paid, pointsSpent: false } });

test('a bill paid in parts: what is paid, what remains, the least part, and the payment follows the way chosen', async () => {
  render(<ChoosePaymentType actor={(await checkoutAtChoose({ bill: partsBill(1_000_000) })).actor} />);
  const text = plain(document.body.textContent);
  expect(text).toContain('Оплачено 1 000 000,00 из 2 500 000,00 руб.');
  expect(text).toContain('Осталось оплатить 1 500 000,00 руб.');
  expect(text).toContain('Не меньше 50 000,00 руб.');
  // By card: what remains.
  expect(summary(t.partAmount)).toBe('1 500 000,00 руб.');
  expect(plain(screen.getByRole('button', { name: PAY }).textContent)).toBe('Оплатить 1 500 000,00 руб.');
  // The fast-payment system takes at most its cap, and says so.
  expect(text).toContain('Через СБП — не больше 1 000 000,00 руб. за один платеж');
  await userEvent.click(screen.getByRole('radio', { name: /СБП/ }));
  expect(summary(t.partAmount)).toBe('1 000 000,00 руб.');
  expect(summary(t.total)).toBe('1 000 000,00 руб.');
});

test('a bill without parts: a way capped below the whole is unavailable for this amount, saying why', async () => {
  render(<ChoosePaymentType actor={(await checkoutAtChoose({ bill: billWithEmail({ info: { Summ: 2_500_000 }, cardTypes: ways() }) })).actor} />);
  expect(screen.getByRole('radio', { name: /СБП/ })).toBeDisabled();
  expect(screen.getByRole('radio', { name: /Банковская карта/ })).toBeEnabled();
  expect(plain(screen.getByRole('radio', { name: /СБП/ }).closest('label')!.textContent)).toContain('Через СБП — не больше 1 000 000,00 руб. за один платеж');
  expect(screen.queryByText(t.partAmount)).toBeNull();
  expect(plain(document.body.textContent)).not.toContain('Осталось оплатить');
});

test("'Сумма платежа' typed: the total follows it, a part the bill cannot take says why and is not asked for, a fitting one is sent", async () => {
  const { actor, requestPaymentUrl } = await checkoutAtChoose({ bill: partsBill(1_000_000) });
  render(<ChoosePaymentType actor={actor} />);
  const field = screen.getByLabelText(t.partAmount);
  expect(plain((field as HTMLInputElement).value)).toBe('1 500 000,00');

  await userEvent.clear(field);
  await userEvent.type(field, '20000');
  expect(plain(screen.getByText('Не меньше 50 000,00 руб.', { selector: '.field-error' }).textContent)).toBe('Не меньше 50 000,00 руб.');
  expect(field).toHaveAttribute('aria-invalid', 'true');
  await userEvent.click(screen.getByRole('button', { name: /Оплатить/ }));
  expect(requestPaymentUrl.calls).toHaveLength(0);

  await userEvent.clear(field);
  await userEvent.type(field, '1600000');
  expect(plain(screen.getByText(/^Не больше, чем осталось оплатить/).textContent)).toBe('Не больше, чем осталось оплатить: 1 500 000,00 руб.');

  await userEvent.clear(field);
  await userEvent.type(field, '12,5x');
  expect(screen.getByText('Введите сумму в рублях и копейках')).toBeInTheDocument();

  await userEvent.clear(field);
  await userEvent.type(field, '700 000,50');
  expect(field).not.toHaveAttribute('aria-invalid');
  expect(summary(t.partAmount)).toBe('700 000,50 руб.');
  expect(summary(t.total)).toBe('700 000,50 руб.');
  expect(plain(screen.getByRole('button', { name: PAY }).textContent)).toBe('Оплатить 700 000,50 руб.');
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  await waitFor(() => expect(requestPaymentUrl.calls).toHaveLength(1));
  expect(requestPaymentUrl.calls[0]!.input).toEqual(expect.objectContaining({ partSum: 700_000.5 }));
});
