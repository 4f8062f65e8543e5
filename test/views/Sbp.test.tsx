import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stepMessages } from '../../src/services/stepMessages';
import { Sbp } from '../../src/views/Sbp';
import { flush } from '../fixtures/fakes';
import { checkoutAtChoose } from './payments.fixture';

const t = stepMessages.sbp;
const sbpAnswer = {
  success: true,
  info: { orderId: 'order-2', data: { payload: 'https://bank.example/sbp/qr-2', qrcId: 'qr-2', image: { content: 'iVBORw0KGgo=' } } },
};

async function renderSbp(isDesktop: boolean) {
  const checkout = await checkoutAtChoose({ isDesktop });
  checkout.actor.send({ type: 'payment.select', oid: 'type-sbp' });
  checkout.actor.send({ type: 'payment.pay' });
  checkout.requestPaymentUrl.last.answer.resolve(sbpAnswer);
  await flush();
  render(<Sbp actor={checkout.actor} />);
  return checkout;
}

test('desktop: the amount, SPEC\'s words beside the QR with how to scan it, the QR image; no bank-app link, no next button; the status is polled at once', async () => {
  const { fetchStatus } = await renderSbp(true);
  expect(screen.getByText('Сумма к оплате').parentElement).toHaveTextContent(/Сумма к оплате\s*12\s345,67 руб\./);
  expect(screen.getByText('Оплата с помощью мобильного приложения банка')).toBeInTheDocument();
  expect(screen.getByText(t.scanQr)).toBeInTheDocument();
  expect(screen.getByRole('img', { name: t.qrAlt })).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
  expect(screen.queryByRole('link', { name: t.openBankApp })).toBeNull();
  expect(screen.queryByRole('button', { name: /Продолжить|Оплатить/ })).toBeNull();
  expect(fetchStatus.calls).toHaveLength(1);
  expect(fetchStatus.last.input).toEqual({ transactionID: 'qr-2', billOID: 'bill-1' });
});

test("'Получаем данные о платеже' only once the first status answer came", async () => {
  const { fetchStatus } = await renderSbp(true);
  expect(screen.getByRole('status')).toHaveTextContent('');
  expect(screen.queryByText(stepMessages.status.created)).toBeNull();
  await act(async () => {
    fetchStatus.last.answer.resolve({ status: 'created', objectOID: 'bill-1' });
    await flush();
  });
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.status.created);
});

test('mobile: the bank-app link and the QR behind the "Показать/Скрыть QR-код" toggle', async () => {
  await renderSbp(false);
  expect(screen.getByRole('link', { name: t.openBankApp })).toHaveAttribute('href', 'https://bank.example/sbp/qr-2');
  expect(screen.queryByText(t.scanQr)).toBeNull();
  expect(screen.queryByRole('img')).toBeNull();
  const toggle = screen.getByRole('button', { name: t.showQr });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await userEvent.click(toggle);
  expect(screen.getByRole('img', { name: t.qrAlt })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: t.hideQr })).toHaveAttribute('aria-expanded', 'true');
  await userEvent.click(screen.getByRole('button', { name: t.hideQr }));
  expect(screen.queryByRole('img')).toBeNull();
});

test('a phone: while waiting, the status says to pay in the bank app and come back, not to stay on a page every bank leaves', async () => {
  const { fetchStatus } = await renderSbp(false);
  await act(async () => {
    fetchStatus.last.answer.resolve({ status: 'created', objectOID: 'bill-1' });
    await flush();
  });
  expect(screen.getByRole('status')).toHaveTextContent('Подтвердите оплату в приложении банка. После оплаты вернитесь на эту страницу');
  expect(screen.queryByText(/не покидайте страницу/)).toBeNull();
});

test("'Другой способ оплаты' goes back to choosing", async () => {
  const { actor } = await renderSbp(true);
  await userEvent.click(screen.getByRole('button', { name: t.anotherMethod }));
  expect(actor.getSnapshot().context.step).toBe('choosePaymentType');
});

test('a settled payment moves the checkout to the result step', async () => {
  const { actor, fetchStatus } = await renderSbp(false);
  await act(async () => {
    fetchStatus.last.answer.resolve({ status: 'success', objectOID: 'bill-1' });
    await flush();
  });
  expect(actor.getSnapshot().context.step).toBe('result');
});
