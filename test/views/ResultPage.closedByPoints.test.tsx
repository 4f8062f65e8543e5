import { render, screen } from '@testing-library/react';
import { fromCallback, fromPromise } from 'xstate';
import { paymentStatusMachine, type PaymentStatusInput } from '../../src/machines/paymentStatus';
import { receiptMessages } from '../../src/services/receiptMessages';
import { stepMessages } from '../../src/services/stepMessages';
import type { PaymentStatusResponse } from '../../src/services/types';
import { ResultPage } from '../../src/views/ResultPage';

/** The status logic with a fake server: `answer` says what getResult answers for an order. */
const withServer = (answer: (input: PaymentStatusInput) => Promise<PaymentStatusResponse>) => {
  const asked: PaymentStatusInput[] = [];
  const logic = paymentStatusMachine.provide({
    actors: {
      fetchStatus: fromPromise(({ input }: { input: PaymentStatusInput }) => {
        asked.push(input);
        return answer(input);
      }) as never,
      watchVisibility: fromCallback(() => undefined) as never,
      watchConnection: fromCallback(() => undefined) as never,
    },
    actions: { 'log poll failure': () => undefined },
  });
  return { logic, asked };
};

const merchant = { name: 'ООО «Тест»', supportPhone: '+7 (800) 555-01-00', supportEmail: 'support@example.com' };

// /success?withoutProcessing=1 is an address anyone can type: the page says "paid" only when the server does.
test('without an order (/success?withoutProcessing=1 alone) nothing is asked and nothing is said to be paid', () => {
  const { logic, asked } = withServer(async () => ({ status: 'success', objectOID: 'bill-1' }));
  render(<ResultPage logic={logic} orderId={null} billOid={null} merchant={merchant} />);
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.orderNotFound);
  expect(screen.queryByText(stepMessages.status.success)).not.toBeInTheDocument();
  expect(asked).toEqual([]);
});

test('a bill closed by points: the order is asked about, and "paid" shows once the server says success', async () => {
  let settle!: (answer: PaymentStatusResponse) => void;
  const { logic, asked } = withServer(() => new Promise((resolve) => (settle = resolve)));
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.created);
  expect(asked).toEqual([{ transactionID: 'order-1', billOID: 'bill-1' }]);
  settle({ status: 'success', objectOID: 'bill-1' });
  expect(await screen.findByText(stepMessages.status.success)).toBeInTheDocument();
});

test('an order the server does not know is not paid', async () => {
  const { logic } = withServer(async () => ({ status: null }));
  render(<ResultPage logic={logic} orderId="made-up" billOid="bill-1" merchant={merchant} />);
  expect(await screen.findByText(stepMessages.status.orderNotFound)).toBeInTheDocument();
  expect(screen.queryByText(stepMessages.status.success)).not.toBeInTheDocument();
});

// Issue 14: the bill's returnUrl, when the merchant gave one, is one link back to the shop after a success.
test("'Вернуться в магазин' links to the bill's returnUrl, and is absent without one", async () => {
  const { logic } = withServer(async () => ({ status: 'success', objectOID: 'bill-1' }));
  const { unmount } = render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} returnUrl="https://shop.example.ru/orders/1" />);
  expect(await screen.findByText(stepMessages.status.success)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: receiptMessages.backToShop })).toHaveAttribute('href', 'https://shop.example.ru/orders/1');
  unmount();
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" merchant={merchant} />);
  expect(await screen.findByText(stepMessages.status.success)).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: receiptMessages.backToShop })).not.toBeInTheDocument();
});
