import { render, screen } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { paymentStatusMachine } from '../../src/machines/paymentStatus';
import { messages } from '../../src/services/messages';
import { ResultPage } from '../../src/views/ResultPage';

const logic = paymentStatusMachine.provide({
  actors: { fetchStatus: fromPromise(() => new Promise(() => undefined)) as never, watchVisibility: fromPromise(async () => undefined) as never },
  actions: { 'log poll failure': () => undefined },
});

test('/success?withoutProcessing=1 without an order: the bill was closed by points', () => {
  render(<ResultPage logic={logic} orderId={null} billOid={null} withoutProcessing />);
  expect(screen.getByRole('status')).toHaveTextContent(messages.status.success);
});

test('without an order and without withoutProcessing: "Order not found"', () => {
  render(<ResultPage logic={logic} orderId={null} billOid={null} />);
  expect(screen.getByRole('status')).toHaveTextContent(messages.status.orderNotFound);
});

test('with an order the status is polled, even when closed by points (the server has the last word)', () => {
  render(<ResultPage logic={logic} orderId="order-1" billOid="bill-1" withoutProcessing />);
  expect(screen.getByRole('status')).toHaveTextContent(messages.status.created);
});
