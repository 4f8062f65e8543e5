import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../src/services/messages';
import { ChoosePaymentType } from '../../src/views/ChoosePaymentType';
import { aType, usualTypes } from '../fixtures/billBuilder';
import { flush } from '../fixtures/fakes';
import { billWithEmail, checkoutAtChoose } from './payments.fixture';

const t = messages.choosePaymentType;
const offerBill = () => billWithEmail({ cardTypes: [aType({ IsShowAggregatorOffer: true, IsShowExecuterOffer: true }), ...usualTypes().slice(1)] });

function renderChoose(...args: Parameters<typeof checkoutAtChoose>) {
  const checkout = checkoutAtChoose(...args);
  render(<ChoosePaymentType actor={checkout.actor} />);
  return checkout;
}

const summary = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;

test('options with names, icons and fees; the first is preselected; the summary follows the choice', async () => {
  renderChoose();
  expect(screen.getByRole('heading', { name: t.title })).toBeInTheDocument();
  const radios = screen.getAllByRole('radio');
  expect(radios.map((r) => r.closest('label')!.querySelector('.payment-type-name')!.textContent)).toEqual(['Банковская карта', 'СБП', 'SberPay']);
  expect(radios.every((r) => r.closest('label')!.querySelector('svg[aria-hidden="true"]'))).toBe(true);
  expect(screen.getByRole('radio', { name: /Банковская карта/ })).toBeChecked();
  expect(screen.getByText(t.commission(185.19))).toHaveTextContent('Сервисный сбор: 185,19 руб.');
  expect(within(screen.getByRole('radio', { name: /СБП/ }).closest('label')!).queryByText(/Сервисный сбор/)).toBeNull();

  expect(summary(t.prepayment)).toMatch(/12\s345,67 руб\./);
  expect(summary(t.fee)).toMatch(/185,19 руб\./);
  expect(summary(t.total)).toMatch(/12\s530,86 руб\./);
  expect(screen.queryByText(t.pointsUsed)).toBeNull();

  await userEvent.click(screen.getByRole('radio', { name: /СБП/ }));
  expect(screen.getByRole('radio', { name: /СБП/ })).toBeChecked();
  expect(summary(t.fee)).toMatch(/0,00 руб\./);
  expect(summary(t.total)).toMatch(/12\s345,67 руб\./);
});

test('points covering the bill: the title says so, no option, the minimum fee reads "Сервисный сбор от"', () => {
  renderChoose({ bill: billWithEmail({ info: { Summ: 1500, CustNo: 'C-2' }, pointsEnabled: true, usefulPoints: 5000 }) }, { points: 1500 });
  expect(screen.getByRole('heading', { name: t.coveredByPoints })).toBeInTheDocument();
  expect(screen.queryAllByRole('radio')).toHaveLength(0);
  expect(screen.getByText(t.feeFrom)).toBeInTheDocument();
  expect(screen.getByText(t.pointsUsed)).toBeInTheDocument();
  expect(summary(t.pointsUsed)).toMatch(/1\s500 баллов/);
  expect(summary(t.total)).toMatch(/^0,00 руб\./);
});

test('agreements: both errors on Pay, tied to their checkboxes; each check clears the other’s error', async () => {
  const { requestPaymentUrl } = renderChoose({ bill: offerBill() });
  const aggregator = screen.getByRole('checkbox', { name: 'Я принимаю условия оферты' });
  const executer = screen.getByRole('checkbox', { name: 'Я принимаю условия платежа' });
  await userEvent.click(screen.getByRole('button', { name: t.pay }));
  expect(screen.getByText(t.offerRequired)).toBeInTheDocument();
  expect(screen.getByText(t.executerRequired)).toBeInTheDocument();
  expect(aggregator).toHaveAccessibleDescription(t.offerRequired);
  expect(executer).toHaveAttribute('aria-invalid', 'true');
  expect(requestPaymentUrl.calls).toHaveLength(0);

  await userEvent.click(aggregator);
  expect(aggregator).toBeChecked();
  expect(screen.queryByText(t.offerRequired)).toBeNull();
  expect(screen.queryByText(t.executerRequired)).toBeNull();

  await userEvent.click(screen.getByRole('button', { name: t.pay }));
  expect(screen.getByText(t.executerRequired)).toBeInTheDocument();
  await userEvent.click(screen.getByText('Я принимаю', { selector: '#agreement-executer-label' }));
  expect(executer).toBeChecked();
  expect(screen.queryByText(t.executerRequired)).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: t.pay }));
  expect(requestPaymentUrl.calls).toHaveLength(1);
});

test('a type without offers shows no agreement', async () => {
  renderChoose({ bill: offerBill() });
  await userEvent.click(screen.getByRole('radio', { name: /СБП/ }));
  expect(screen.queryByRole('checkbox')).toBeNull();
});

test('Pay is disabled while the payment URL is requested; the HTML message when there is none', async () => {
  const { requestPaymentUrl } = renderChoose();
  const pay = screen.getByRole('button', { name: t.pay });
  await userEvent.click(pay);
  expect(pay).toBeDisabled();
  await userEvent.click(pay);
  expect(requestPaymentUrl.calls).toHaveLength(1);
  await act(async () => {
    requestPaymentUrl.last.answer.resolve({ success: true, info: { orderId: 'o' } });
    await flush();
  });
  expect(screen.getByRole('alert')).toHaveTextContent(t.noPaymentUrl);
  expect(pay).toBeEnabled();
});

test('the agreement’s link opens the offer modal with the text of that offer', async () => {
  const { fetchOffer } = renderChoose({ bill: offerBill() });
  await userEvent.click(screen.getByRole('button', { name: 'условия платежа' }));
  expect(fetchOffer.last.input).toEqual({ kind: 'executer', objectOID: 'bill-1', cardTypeOID: 'type-card' });
  const dialog = screen.getByRole('dialog', { name: messages.offer.title });
  expect(dialog).toBeInTheDocument();
  await act(async () => {
    fetchOffer.last.answer.resolve('<h2>Условия платежа</h2><p>Текст</p>');
    await flush();
  });
  expect(within(dialog).getByRole('heading', { name: 'Условия платежа' })).toBeInTheDocument();
});
