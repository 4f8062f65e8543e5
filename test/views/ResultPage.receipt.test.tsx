import { act, render, screen, within } from '@testing-library/react';
import { fromCallback, fromPromise } from 'xstate';
import { paymentStatusMachine, SLOW_AFTER_MS, type PaymentStatusInput } from '../../src/machines/paymentStatus';
import { stepMessages } from '../../src/services/stepMessages';
import { receiptMessages as t } from '../../src/services/receiptMessages';
import type { PaymentStatusResponse } from '../../src/services/types';
import { ResultPage } from '../../src/views/ResultPage';
import { aReceipt } from '../fixtures/receipt';

const logicAnswering = (answer: (input: PaymentStatusInput) => Promise<PaymentStatusResponse>) =>
  paymentStatusMachine.provide({
    actors: {
      fetchStatus: fromPromise(({ input }: { input: PaymentStatusInput }) => answer(input)) as never,
      watchVisibility: fromCallback(() => undefined) as never,
      watchConnection: fromCallback(() => undefined) as never,
    },
    actions: { 'log poll failure': () => undefined },
  });

const merchant = { name: 'ООО «Тест»', supportPhone: '', supportEmail: '' };
const receipt = aReceipt({
  amount: 12530.86,
  pointsUsed: 1000,
  purpose: 'Оплата по договору № 1',
  at: '2026-01-15T09:05:00.000Z',
  method: { code: 'ALL', name: 'Банковская карта' },
  email: 'iv***@mail.ru',
  items: [{ name: 'Оплата по договору № 1', quantity: 1, price: 13343.37, amount: 13343.37, vat: 'none' }],
  fee: 187.49,
  fiscal: true,
  card: '411111**1111',
});

const rowOf = (label: string) => screen.getByText(label).closest('div')!;

test('paid: the receipt lists every fact of the server\'s answer and the merchant', async () => {
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  const list = await screen.findByRole('region', { name: t.receiptTitle });
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.success);
  expect(within(rowOf(t.amount)).getByText(/12\s530,86 руб\./)).toBeInTheDocument();
  expect(within(rowOf(t.points)).getByText(/1\s000 баллов/)).toBeInTheDocument();
  expect(within(rowOf(t.purpose)).getByText('Оплата по договору № 1')).toBeInTheDocument();
  expect(within(list).getByRole('list', { name: t.positions })).toBeInTheDocument();
  expect(within(rowOf(t.merchant)).getByText('ООО «Тест»')).toBeInTheDocument();
  expect(within(rowOf(t.order)).getByText('order-1')).toBeInTheDocument();
  // 09:05 UTC is 12:05 in Moscow.
  expect(within(rowOf(t.at)).getByText(/15 января 2026.*12:05 МСК/)).toBeInTheDocument();
  expect(within(rowOf(t.method)).getByText('Банковская карта')).toBeInTheDocument();
  expect(within(rowOf(t.email)).getByText('iv***@mail.ru')).toBeInTheDocument();
  // The card as the acquirer masked it.
  expect(within(rowOf(t.card)).getByText('411111**1111')).toBeInTheDocument();
  expect(screen.queryByText(t.retry)).not.toBeInTheDocument();
});

test('the page of its own (back from the bank) puts focus on its heading', async () => {
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(screen.getByRole('heading', { level: 1, name: stepMessages.status.resultTitle })).toHaveFocus();
  await screen.findByRole('region', { name: t.receiptTitle });
});

test('a long order number shows its start; the whole one is copied, and the copy is announced', async () => {
  const orderId = '982c0b2d-2cb0-467f-90d3-fd1a572b5d90';
  const writeText = jest.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, orderId } }));
  render(<ResultPage logic={logic} orderId={orderId} billOid="bill-1" merchant={merchant} />);
  await screen.findByRole('region', { name: t.receiptTitle });
  expect(rowOf(t.order)).toHaveTextContent('982c0b2d…');
  expect(rowOf(t.order)).not.toHaveTextContent(orderId);
  await act(async () => screen.getByRole('button', { name: t.copyOrder }).click());
  expect(writeText).toHaveBeenCalledWith(orderId);
  expect(screen.getByText(t.orderCopied)).toHaveAttribute('aria-live', 'polite');
});

test('where the clipboard is refused, the whole order number is shown to select by hand', async () => {
  const orderId = '982c0b2d-2cb0-467f-90d3-fd1a572b5d90';
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, orderId } }));
  render(<ResultPage logic={logic} orderId={orderId} billOid="bill-1" merchant={merchant} />);
  await screen.findByRole('region', { name: t.receiptTitle });
  await act(async () => screen.getByRole('button', { name: t.copyOrder }).click());
  expect(rowOf(t.order)).toHaveTextContent(orderId);
});

test('a receipt without positions still has the fee on a line of its own; the bill\'s return address leads back to the shop', async () => {
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, items: [], returnUrl: 'https://shop.example.ru/orders/1' } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  await screen.findByRole('region', { name: t.receiptTitle });
  expect(within(rowOf(t.fee)).getByText(/187,49 руб\./)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: t.backToShop })).toHaveAttribute('href', 'https://shop.example.ru/orders/1');
});

test('the receipt lists the positions (quantity × price, VAT, amount), the fee, the points as a discount, and where the fiscal receipt goes', async () => {
  const items = [
    { name: 'Предоплата по ДДУ № 145', quantity: 1, price: 10000, amount: 10000, vat: 'none' },
    { name: 'Кладовая', quantity: 2.5, price: 1337.35, amount: 3343.38, vat: 'vat22' },
  ];
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, items } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  const positions = within(await screen.findByRole('list', { name: t.positions })).getAllByRole('listitem');
  expect(positions.map((line) => line.textContent)).toEqual([
    expect.stringMatching(/^Предоплата по ДДУ № 1451 × 10\s000,00 руб\. · Без НДС10\s000,00 руб\.$/),
    expect.stringMatching(/^Кладовая2,5 × 1\s337,35 руб\. · НДС 22 %3\s343,38 руб\.$/),
    expect.stringMatching(/^Сервисный сбор187,49 руб\.$/),
    expect.stringMatching(/^Оплачено баллами−1\s000,00 руб\.$/),
  ]);
  expect(screen.getByText(t.fiscalNote)).toBeInTheDocument();
});

test('no fiscal receipt with the order (the merchant issues its own): the page does not promise one', async () => {
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, fiscal: false, fee: 0, pointsUsed: 0 } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  const positions = within(await screen.findByRole('list', { name: t.positions })).getAllByRole('listitem');
  expect(positions).toHaveLength(1);
  expect(screen.queryByText(t.fiscalNote)).not.toBeInTheDocument();
});

test('a payment the merchant gave back in part: still paid, and the receipt says what went back and when', async () => {
  const refund = { amount: 2000, at: '2026-02-01T07:30:00.000Z', whole: false };
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, refund } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  await screen.findByRole('region', { name: t.receiptTitle });
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.success);
  expect(within(rowOf(t.amount)).getByText(/12\s530,86 руб\./)).toBeInTheDocument();
  // 07:30 UTC is 10:30 in Moscow.
  expect(rowOf(t.refunded)).toHaveTextContent(/^Возвращено2\s000,00 руб\., 1 февраля 2026 г\. в 10:30 МСК$/);
  // What the payment comes to now: 12 530,86 − 2 000,00.
  expect(rowOf(t.netAmount)).toHaveTextContent(/^Итого с учетом возврата10\s530,86 руб\.$/);
});

test('a payment given back whole says \'Возвращено N руб.\' with the date, and nowhere \'Оплачено\'', async () => {
  const refund = { amount: 12530.86, at: '2026-02-01T07:30:00.000Z', whole: true };
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, pointsUsed: 0, refund } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  await screen.findByRole('region', { name: t.receiptTitle });
  expect(screen.getByRole('status')).toHaveTextContent(/^Возвращено 12\s530,86 руб\.$/);
  expect(screen.queryByText(stepMessages.status.success)).not.toBeInTheDocument();
  expect(screen.queryByText(t.amount)).not.toBeInTheDocument();
  expect(within(rowOf(t.paymentAmount)).getByText(/12\s530,86 руб\./)).toBeInTheDocument();
  expect(rowOf(t.refunded)).toHaveTextContent(/1 февраля 2026 г\. в 10:30 МСК/);
});

test('a bill closed by points says so as the way paid', async () => {
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, amount: 0, method: null, email: null } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(within(await screen.findByRole('region', { name: t.receiptTitle })).getByText(t.methodPoints)).toBeInTheDocument();
  expect(screen.queryByText(t.email)).not.toBeInTheDocument();
});

test('declined: no receipt, and \'Попробовать снова\' leads back to the bill with the order, whose choices the bill keeps', async () => {
  const declined = { ...receipt, status: 'declined' as const, billPaid: false, method: { code: 'SBP', name: 'СБП' }, card: null };
  const logic = logicAnswering(async () => ({ status: 'declined', objectOID: 'bill-1', receipt: declined }));
  render(<ResultPage logic={logic} orderId="order 1" billOid="bill-1" merchant={merchant} />);
  expect(await screen.findByRole('link', { name: t.retry })).toHaveAttribute('href', '/pay/bill-1?retry=order%201');
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.declined);
  expect(screen.queryByRole('region', { name: t.receiptTitle })).not.toBeInTheDocument();
});

test('a declined card: the amount, the card and why in the payer\'s words, then another card, fast payment with no fee, and support', async () => {
  const declined = { ...receipt, status: 'declined' as const, billPaid: false, declineReason: 'insufficient funds' as const, fastPaymentFee: 0 };
  const logic = logicAnswering(async () => ({ status: 'declined', objectOID: 'bill-1', receipt: declined }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={{ ...merchant, supportPhone: '+7 (800) 555-01-00', supportEmail: 'help@example.com' }} />);
  const details = await screen.findByRole('region', { name: t.declinedTitle });
  expect(within(details).getByText(t.declinedAmount).closest('div')).toHaveTextContent('12 530,86 руб.');
  expect(within(details).getByText(t.method).closest('div')).toHaveTextContent('Банковская карта, 411111**1111');
  expect(within(details).getByText(t.declinedReason).closest('div')).toHaveTextContent('Недостаточно средств на карте');
  expect(details).toHaveTextContent('Пополните карту или оплатите другой картой.');
  expect(screen.getByRole('link', { name: t.anotherCard })).toHaveAttribute('href', '/pay/bill-1?retry=order-1');
  expect(screen.getByRole('link', { name: 'Оплатить через СБП — без комиссии' })).toHaveAttribute('href', '/pay/bill-1?retry=order-1&via=SBP');
  // The merchant's support among the ways forward, beside the buttons (the header has it too, at the top).
  const support = screen.getByText((_, element) => element?.tagName === 'P' && !!element.textContent?.startsWith(t.support));
  expect(within(support).getByRole('link', { name: '+7 (800) 555-01-00' })).toHaveAttribute('href', 'tel:+78005550100');
  expect(within(support).getByRole('link', { name: 'help@example.com' })).toHaveAttribute('href', 'mailto:help@example.com');
});

test('a declined card the bank gave no reason for says so; no fast payment is offered where the bill has none', async () => {
  const logic = logicAnswering(async () => ({ status: 'declined', objectOID: 'bill-1', receipt: { ...receipt, status: 'declined', billPaid: false } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  const details = await screen.findByRole('region', { name: t.declinedTitle });
  expect(within(details).getByText(t.declinedReason).closest('div')).toHaveTextContent(t.noReasonGiven);
  expect(details).toHaveTextContent(stepMessages.decline.noReasonAdvice);
  // The row says the bank gave no reason; the advice does not say it again.
  expect(details).not.toHaveTextContent(stepMessages.decline.noReason);
  expect(screen.queryByRole('link', { name: /СБП/ })).toBeNull();
});

test('paid after the bill was paid, and given back: how much goes back and where, on the card or the account it came from', async () => {
  const card = logicAnswering(async () => ({ status: 'refunded', objectOID: 'bill-1', receipt: { ...receipt, status: 'refunded', billPaid: true } }));
  const { unmount } = render(<ResultPage logic={card} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  await screen.findByText(/^Счет уже был оплачен/);
  expect(screen.getByRole('status')).toHaveTextContent(/^Счет уже был оплачен, этот платеж возвращен: 12\s530,86 руб\. вернутся на карту в течение 7 рабочих дней$/);
  unmount();
  const fast = logicAnswering(async () => ({ status: 'refunded', objectOID: 'bill-1', receipt: { ...receipt, status: 'refunded', billPaid: true, method: { code: 'SBP', name: 'СБП' }, card: null } }));
  render(<ResultPage logic={fast} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(await screen.findByRole('status')).toHaveTextContent(/вернутся на счет в течение/);
});

test('declined because another payment paid the bill: it says the bill is already paid, with no retry', async () => {
  const logic = logicAnswering(async () => ({ status: 'declined', objectOID: 'bill-1', receipt: { ...receipt, status: 'declined', billPaid: true } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(await screen.findByText(t.billPaidElsewhere)).toBeInTheDocument();
  expect(screen.queryByText(stepMessages.status.declined)).not.toBeInTheDocument();
  expect(screen.queryByText(t.retry)).not.toBeInTheDocument();
});

test('the widget closed (state=return) while the bank says nothing: \'Оплата отменена\' and a retry, not a spinner', async () => {
  const logic = logicAnswering(async () => ({ status: 'created', objectOID: 'bill-1' }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} cancelled />);
  expect(await screen.findByText(t.cancelled)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: t.retry })).toBeInTheDocument();
  expect(screen.queryByText(stepMessages.status.created)).not.toBeInTheDocument();
});

test('a success reported after state=return is a success: the address bar picks no outcome', async () => {
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} cancelled />);
  expect(await screen.findByText(stepMessages.status.success)).toBeInTheDocument();
  expect(screen.queryByText(t.cancelled)).not.toBeInTheDocument();
});

describe('a slow bank', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('after two minutes still created: said honestly, with a reload', async () => {
    const logic = logicAnswering(async () => ({ status: 'created', objectOID: 'bill-1' }));
    const reload = jest.fn();
    render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} onReload={reload} />);
    await act(async () => void (await jest.advanceTimersByTimeAsync(SLOW_AFTER_MS - 1000)));
    expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.created);
    await act(async () => void (await jest.advanceTimersByTimeAsync(1000)));
    expect(screen.getByRole('status')).toHaveTextContent(t.slow);
    act(() => screen.getByRole('button', { name: t.reload }).click());
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

test("a part of a bill paid in parts, more to pay: its receipt, 'Осталось оплатить …' and the next part on the bill's link", async () => {
  const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, remaining: 1_500_000 } }));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  await screen.findByRole('region', { name: t.receiptTitle });
  expect(screen.getByText(/^Осталось оплатить 1\s500\s000,00 руб\.$/)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: t.nextPart })).toHaveAttribute('href', '/pay/bill-1');
});

test('the last part (nothing remains) and a bill paid whole offer no next part', async () => {
  for (const remaining of [0, null]) {
    const logic = logicAnswering(async () => ({ status: 'success', objectOID: 'bill-1', receipt: { ...receipt, remaining } }));
    const { unmount } = render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
    await screen.findByRole('region', { name: t.receiptTitle });
    expect(screen.queryByText(/Осталось оплатить/)).toBeNull();
    expect(screen.queryByRole('link', { name: t.nextPart })).toBeNull();
    unmount();
  }
});
