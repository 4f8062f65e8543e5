import { render, screen } from '@testing-library/react';
import { fromCallback, fromPromise } from 'xstate';
import { paymentStatusMachine, type PaymentStatusInput } from '../../src/machines/paymentStatus';
import { receiptMessages as t } from '../../src/services/receiptMessages';
import type { PaymentStatusResponse } from '../../src/services/types';
import { ResultPage } from '../../src/views/ResultPage';
import { aReceipt } from '../fixtures/receipt';

/*
 * A bill the merchant captures by hand: the result page says the money is held, not paid (the amount, and until when
 * the hold lasts), shows no receipt until the capture, and after a release says so with the way back to the bill.
 */

const logicAnswering = (answer: () => Promise<PaymentStatusResponse>) =>
  paymentStatusMachine.provide({
    actors: {
      fetchStatus: fromPromise(({ input: _input }: { input: PaymentStatusInput }) => answer()) as never,
      watchVisibility: fromCallback(() => undefined) as never,
      watchConnection: fromCallback(() => undefined) as never,
    },
    actions: { 'log poll failure': () => undefined },
  });

const merchant = { name: 'ООО «Автосалон»', supportPhone: '', supportEmail: '' };
// 21:30 UTC on 1 December is already 2 December in Moscow: the day said is Moscow's.
const held: PaymentStatusResponse = { status: 'held', objectOID: 'bill-1', hold: { amount: 150000, until: '2026-12-01T21:30:00.000Z' } };

test("held: 'Сумма заблокирована на карте', the amount, what happens next by when; no receipt, no retry, no success", async () => {
  render(<ResultPage logic={logicAnswering(async () => held)} orderId="order-1" billOid="bill-1" merchant={merchant} returnUrl="https://shop.example/" />);
  expect(await screen.findByText(t.held)).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('Сумма заблокирована на карте');
  expect(screen.getByText(/^150\s000,00 руб\.$/)).toBeInTheDocument();
  expect(screen.getByText('Продавец спишет ее после подтверждения или снимет блокировку до 02.12.2026')).toBeInTheDocument();
  expect(screen.queryByRole('region', { name: t.receiptTitle })).not.toBeInTheDocument();
  expect(screen.queryByText(t.retry)).not.toBeInTheDocument();
  expect(screen.queryByText(t.backToShop)).not.toBeInTheDocument();
});

test('captured: the receipt for what was taken replaces the hold', async () => {
  const answers = [held, { status: 'success' as const, objectOID: 'bill-1', receipt: aReceipt({ amount: 100000 }) }];
  const logic = logicAnswering(async () => answers.shift() ?? held).provide({ delays: { 'status poll interval': 0 } });
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(await screen.findByRole('region', { name: t.receiptTitle })).toBeInTheDocument();
  expect(screen.queryByText(t.held)).not.toBeInTheDocument();
  expect(screen.queryByText(/снимет блокировку/)).not.toBeInTheDocument();
});

test("released: 'Блокировка снята', and 'Попробовать снова' back to the bill", async () => {
  const answers = [held, { status: 'released' as const, objectOID: 'bill-1' }];
  const logic = logicAnswering(async () => answers.shift() ?? held).provide({ delays: { 'status poll interval': 0 } });
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(await screen.findByText(t.released)).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('Блокировка снята');
  expect(screen.getByRole('link', { name: t.retry })).toHaveAttribute('href', '/pay/bill-1?retry=order-1');
  expect(screen.queryByText(/150\s000/)).not.toBeInTheDocument();
});
