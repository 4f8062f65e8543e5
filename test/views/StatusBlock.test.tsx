import { act, render, screen } from '@testing-library/react';
import { createActor, fromCallback } from 'xstate';
import { paymentStatusMachine, type PaymentStatusInput } from '../../src/machines/paymentStatus';
import { ApiError } from '../../src/services/http';
import { stepMessages } from '../../src/services/stepMessages';
import type { PaymentStatusResponse } from '../../src/services/types';
import { StatusBlock } from '../../src/views/StatusBlock';
import { fakeCallback, fakeRequest, flush } from '../fixtures/fakes';

function renderStatus(quietUntilAnswered = false) {
  const fetchStatus = fakeRequest<PaymentStatusResponse, PaymentStatusInput>();
  const connection = fakeCallback<void>();
  const actor = createActor(
    paymentStatusMachine.provide({
      actors: { fetchStatus: fetchStatus.logic, watchVisibility: fromCallback(() => undefined), watchConnection: connection.logic },
      actions: { 'log poll failure': () => undefined },
    }),
    { input: { transactionID: 'tx-1', billOID: 'bill-1' } },
  ).start();
  render(<StatusBlock actor={actor} quietUntilAnswered={quietUntilAnswered} />);
  const network = (state: 'offline' | 'online') => act(() => connection.last.sendBack({ type: `connection.${state}` }));
  return { actor, fetchStatus, network };
}

// SPEC's texts, as the payer reads them on the result step for each answer of the status poll.
test.each([
  ['created', { status: 'created' }, 'Получаем данные о платеже. Пожалуйста, не покидайте страницу'],
  ['success', { status: 'success' }, 'Оплата прошла успешно'],
  ['declined', { status: 'declined' }, 'Платеж отклонен'],
  ['an answer without the order', { status: null }, 'Заказ не найден'],
] as const)("%s: the status says '%s'", async (_answer, answer, text) => {
  const { fetchStatus } = renderStatus();
  await act(async () => {
    fetchStatus.last.answer.resolve({ ...answer, objectOID: answer.status === null ? '' : 'bill-1' } as PaymentStatusResponse);
    await flush();
  });
  expect(screen.getByRole('status')).toHaveTextContent(text);
});

test("a 404 from the poll: 'Ошибка 404. Документ не найден. Проверьте ссылку'", async () => {
  const { fetchStatus } = renderStatus();
  await act(async () => {
    fetchStatus.last.answer.reject(new ApiError('Not Found', 404));
    await flush();
  });
  expect(screen.getByRole('status')).toHaveTextContent('Ошибка 404. Документ не найден. Проверьте ссылку');
});

test("offline while polling: 'Нет соединения — проверим, как только оно появится'; back online it asks at once", async () => {
  const { fetchStatus, network } = renderStatus();
  await act(async () => {
    fetchStatus.last.answer.resolve({ status: 'created', objectOID: 'bill-1' });
    await flush();
  });
  network('offline');
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.offline);
  network('online');
  expect(fetchStatus.calls).toHaveLength(2);
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.created);
});

test('quiet until the first answer, then the created text', async () => {
  const quiet = renderStatus(true);
  expect(screen.getByRole('status')).toBeEmptyDOMElement();
  await act(async () => {
    quiet.fetchStatus.last.answer.resolve({ status: 'created', objectOID: 'bill-1' });
    await flush();
  });
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.created);
  quiet.actor.stop();
});

test("paid twice: 'Счет уже оплачен. Деньги за этот платеж возвращены'", async () => {
  const { fetchStatus } = renderStatus();
  await act(async () => {
    fetchStatus.last.answer.resolve({ status: 'refunded', objectOID: 'bill-1' });
    await flush();
  });
  expect(screen.getByRole('status')).toHaveTextContent('Счет уже оплачен. Деньги за этот платеж возвращены');
  expect(fetchStatus.calls).toHaveLength(1);
});
