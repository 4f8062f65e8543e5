import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { ChoosePaymentType } from '../../src/views/ChoosePaymentType';
import { aType, usualTypes } from '../fixtures/billBuilder';
import { flush } from '../fixtures/fakes';
import { billWithEmail, checkoutAtChoose } from './payments.fixture';
import { PAY } from '../fixtures/payButton';

const t = stepMessages.choosePaymentType;
const offerBill = () => billWithEmail({ cardTypes: [aType({ IsShowAggregatorOffer: true, IsShowExecuterOffer: true }), ...usualTypes().slice(1)] });

async function renderChoose(...args: Parameters<typeof checkoutAtChoose>) {
  const checkout = await checkoutAtChoose(...args);
  render(<ChoosePaymentType actor={checkout.actor} />);
  return checkout;
}

/** Types another receipt address into the step's field and presses Pay; the field, for what it then says. */
async function payWithEmail(address: string) {
  const email = screen.getByLabelText(messages.email.label);
  await userEvent.clear(email);
  await userEvent.type(email, address);
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  await act(flush);
  return email;
}

const summary = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;

test('options with names, icons and fees; the first is preselected; the summary follows the choice', async () => {
  await renderChoose();
  expect(screen.getByRole('heading', { name: t.title })).toBeInTheDocument();
  const radios = screen.getAllByRole('radio');
  expect(radios.map((r) => r.closest('label')!.querySelector('.payment-type-name')!.textContent)).toEqual(['Банковская карта', 'СБП', 'SberPay']);
  expect(radios.every((r) => r.closest('label')!.querySelector('svg[aria-hidden="true"]'))).toBe(true);
  expect(screen.getByRole('radio', { name: /Банковская карта/ })).toBeChecked();
  expect(screen.getByText(t.commission(185.19))).toHaveTextContent('Сервисный сбор: 185,19 руб.');
  expect(within(screen.getByRole('radio', { name: /СБП/ }).closest('label')!).queryByText(/Сервисный сбор/)).toBeNull();
  // A way with no fee says so.
  expect(screen.getByRole('radio', { name: /СБП/ })).toHaveAccessibleName(`СБП ${t.noCommission}`);
  // Pay says what it charges.
  expect(screen.getByRole('button', { name: PAY })).toHaveTextContent(/^Оплатить 12\s530,86 руб\.$/);

  expect(summary(t.prepayment)).toMatch(/12\s345,67 руб\./);
  expect(summary(t.fee)).toMatch(/185,19 руб\./);
  expect(summary(t.total)).toMatch(/12\s530,86 руб\./);
  expect(screen.queryByText(messages.points.used)).toBeNull();

  await userEvent.click(screen.getByRole('radio', { name: /СБП/ }));
  expect(screen.getByRole('radio', { name: /СБП/ })).toBeChecked();
  expect(summary(t.fee)).toMatch(/0,00 руб\./);
  expect(summary(t.total)).toMatch(/12\s345,67 руб\./);
  expect(screen.getByRole('button', { name: PAY })).toHaveTextContent(/^Оплатить 12\s345,67 руб\.$/);
});

test('points covering the bill: the title says so, no option, no fee line, and the button says what happens', async () => {
  await renderChoose({ bill: billWithEmail({ info: { Summ: 1500, CustNo: 'C-2' }, pointsEnabled: true, usefulPoints: 5000 }) }, { points: 1500 });
  expect(screen.getByRole('heading', { name: t.coveredByPoints })).toBeInTheDocument();
  expect(screen.queryAllByRole('radio')).toHaveLength(0);
  expect(screen.queryByText(t.feeFrom)).toBeNull();
  expect(screen.queryByText(t.fee)).toBeNull();
  expect(screen.getByText(messages.points.used)).toBeInTheDocument();
  // The points as the discount they are, in roubles (one point, one rouble).
  expect(summary(messages.points.used)).toMatch(/^−1\s500,00 руб\.$/);
  expect(summary(t.total)).toMatch(/^0,00 руб\./);
  expect(screen.getByRole('button', { name: t.payWithPoints })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: PAY })).toBeNull();
});

test("'Не списывать баллы': the points go, the ways to pay come back and Pay asks for the whole price", async () => {
  const { actor } = await renderChoose({ bill: billWithEmail({ info: { Summ: 1500, CustNo: 'C-2' }, pointsEnabled: true, usefulPoints: 5000 }) }, { points: 1500 });
  await userEvent.click(screen.getByRole('button', { name: t.noPoints }));
  expect(actor.getSnapshot().context.usedPoints).toBe(0);
  expect(screen.getByRole('heading', { name: t.title })).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: /Банковская карта/ })).toBeChecked();
  expect(screen.queryByText(messages.points.used)).toBeNull();
  expect(screen.getByRole('button', { name: PAY })).toHaveTextContent(/^Оплатить 1\s685,19 руб\.$/);
});

test('no type chosen yet, the fee still reads "Сервисный сбор от"', async () => {
  const { actor } = await renderChoose({ bill: billWithEmail({ cardTypes: [] }) });
  expect(actor.getSnapshot().context.selectedTypeOid).toBeNull();
  expect(screen.getByText(t.feeFrom)).toBeInTheDocument();
});

test('agreements: both errors on Pay, tied to their checkboxes; each check clears the other’s error', async () => {
  const { requestPaymentUrl } = await renderChoose({ bill: offerBill() });
  const aggregator = screen.getByRole('checkbox', { name: 'Я принимаю условия оферты' });
  const executor = screen.getByRole('checkbox', { name: 'Я принимаю условия платежа' });
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  expect(screen.getByText(t.offerRequired)).toBeInTheDocument();
  expect(screen.getByText(t.executorRequired)).toBeInTheDocument();
  expect(aggregator).toHaveAccessibleDescription(t.offerRequired);
  expect(executor).toHaveAttribute('aria-invalid', 'true');
  expect(requestPaymentUrl.calls).toHaveLength(0);

  await userEvent.click(aggregator);
  expect(aggregator).toBeChecked();
  expect(screen.queryByText(t.offerRequired)).toBeNull();
  expect(screen.queryByText(t.executorRequired)).toBeNull();

  await userEvent.click(screen.getByRole('button', { name: PAY }));
  expect(screen.getByText(t.executorRequired)).toBeInTheDocument();
  await userEvent.click(screen.getByText('Я принимаю', { selector: '#agreement-executor-label' }));
  expect(executor).toBeChecked();
  expect(screen.queryByText(t.executorRequired)).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  expect(requestPaymentUrl.calls).toHaveLength(1);
});

test('a type without offers shows no agreement', async () => {
  await renderChoose({ bill: offerBill() });
  await userEvent.click(screen.getByRole('radio', { name: /СБП/ }));
  expect(screen.queryByRole('checkbox')).toBeNull();
});

test('Pay is disabled while the payment URL is requested; the HTML message when there is none', async () => {
  const { requestPaymentUrl } = await renderChoose();
  const pay = screen.getByRole('button', { name: PAY });
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
  const { fetchOffer } = await renderChoose({ bill: offerBill() });
  await userEvent.click(screen.getByRole('button', { name: 'условия платежа' }));
  expect(fetchOffer.last.input).toEqual({ kind: 'executor', objectOID: 'bill-1', cardTypeOID: 'type-card' });
  // The payment terms are titled as their link names them, not as the offer.
  const dialog = screen.getByRole('dialog', { name: stepMessages.offer.executorTitle });
  expect(dialog).toBeInTheDocument();
  await act(async () => {
    fetchOffer.last.answer.resolve('<p>Текст условий</p>');
    await flush();
  });
  expect(within(dialog).getByText('Текст условий')).toBeInTheDocument();
  await userEvent.click(within(dialog).getByRole('button', { name: stepMessages.offer.close }));
  await userEvent.click(screen.getByRole('button', { name: 'условия оферты' }));
  expect(screen.getByRole('dialog', { name: stepMessages.offer.title })).toBeInTheDocument();
});

describe('the receipt e-mail stays visible and editable here', () => {
  test('prefilled with the address the receipt goes to; Pay as it is asks the server nothing more', async () => {
    const { requestPaymentUrl } = await renderChoose();
    const email = screen.getByLabelText(messages.email.label);
    expect(email).toHaveValue('payer@example.com');
    expect(email).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: PAY }));
    expect(requestPaymentUrl.last.input.email).toBe('payer@example.com');
  });

  test('changed: Pay has the server check the new address, then pays with it', async () => {
    const { checkEmail, requestPaymentUrl } = await renderChoose();
    await payWithEmail('new@example.com');
    expect(checkEmail.last.input).toEqual({ email: 'new@example.com' });
    expect(requestPaymentUrl.calls).toHaveLength(0);
    await act(async () => {
      checkEmail.last.answer.resolve('new@example.com');
      await flush();
    });
    expect(requestPaymentUrl.last.input.email).toBe('new@example.com');
  });

  test('a changed address the server refuses: the field is emptied with "Email некорректен"', async () => {
    const { checkEmail, requestPaymentUrl } = await renderChoose();
    const email = await payWithEmail('refused@example.com');
    await act(async () => {
      checkEmail.last.answer.reject(new Error('Неверный email'));
      await flush();
    });
    expect(email).toHaveValue('');
    expect(email).toHaveAccessibleDescription(messages.validation.emailRejected);
    expect(requestPaymentUrl.calls).toHaveLength(0);
  });

  test('a changed address that is no e-mail is refused on the spot', async () => {
    const { requestPaymentUrl } = await renderChoose();
    const email = await payWithEmail('not-an-email');
    expect(email).toHaveAccessibleDescription(stepMessages.validation.emailFormat);
    expect(requestPaymentUrl.calls).toHaveLength(0);
  });
});

test('after agreement errors focus goes to the first one missing, on every Pay', async () => {
  await renderChoose({ bill: offerBill() });
  const aggregator = screen.getByRole('checkbox', { name: 'Я принимаю условия оферты' });
  const executor = screen.getByRole('checkbox', { name: 'Я принимаю условия платежа' });
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  expect(aggregator).toHaveFocus();
  await userEvent.click(aggregator);
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  expect(executor).toHaveFocus();
});

test('ticks survive switching the way to pay and back', async () => {
  await renderChoose({ bill: offerBill() });
  await userEvent.click(screen.getByRole('checkbox', { name: 'Я принимаю условия оферты' }));
  await userEvent.click(screen.getByRole('radio', { name: /СБП/ }));
  await userEvent.click(screen.getByRole('radio', { name: /Банковская карта/ }));
  expect(screen.getByRole('checkbox', { name: 'Я принимаю условия оферты' })).toBeChecked();
  expect(screen.getByRole('checkbox', { name: 'Я принимаю условия платежа' })).not.toBeChecked();
});

test('Pay on a stale tab (409): the step says the bill is already paid, with no Pay left', async () => {
  const { requestPaymentUrl } = await renderChoose();
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  await act(async () => {
    requestPaymentUrl.last.answer.reject(Object.assign(new Error('Счет уже оплачен'), { status: 409 }));
    await flush();
  });
  expect(screen.getByRole('heading', { name: t.alreadyPaid })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent(t.alreadyPaidNote);
  expect(screen.queryByText(t.noPaymentUrl)).toBeNull();
  expect(screen.queryByRole('button', { name: PAY })).toBeNull();
});

test('Pay shows it is busy at once', async () => {
  await renderChoose();
  const pay = screen.getByRole('button', { name: PAY });
  await userEvent.click(pay);
  expect(pay).toHaveAttribute('aria-busy', 'true');
  expect(pay.querySelector('.spinner')).not.toBeNull();
});

describe('what failed before, and what is still open', () => {
  test("after 'Попробовать снова' the step names what failed: the way, the amount and the bank's reason with what to do", async () => {
    const bill = billWithEmail();
    await renderChoose({ bill: { ...bill, retry: { cardTypeOID: 'type-card', email: 'payer@example.com', ownAttempt: true, amount: 12530.86, reason: 'card expired or blocked' } } });
    const notice = screen.getByText(t.retryTitle).closest('div')!;
    expect(notice).toHaveTextContent(/Банковская карта, 12\s530,86 руб\./);
    expect(notice).toHaveTextContent('Срок действия карты истек или карта заблокирована. Оплатите другой картой или обратитесь в банк, выпустивший карту.');
  });

  test('a decline the bank gave no reason for says so, and what to try', async () => {
    await renderChoose({ bill: { ...billWithEmail(), retry: { cardTypeOID: 'type-sbp', email: null, ownAttempt: false, amount: 12345.67, reason: null } } });
    expect(screen.getByText(t.retryTitle).closest('div')).toHaveTextContent(stepMessages.decline.noReason);
  });

  test("after a hold let go: 'Блокировка снята' with the way and the amount held, not a decline", async () => {
    await renderChoose({ bill: { ...billWithEmail(), retry: { cardTypeOID: 'type-card', email: null, ownAttempt: false, amount: 150000, reason: null, released: true } } });
    const notice = screen.getByText(t.releasedTitle).closest('div')!;
    expect(notice).toHaveTextContent('Блокировка снята');
    expect(notice).toHaveTextContent(/Банковская карта, 150\s000,00 руб\./);
    expect(screen.queryByText(t.retryTitle)).not.toBeInTheDocument();
    expect(notice).not.toHaveTextContent(stepMessages.decline.noReason);
    expect(screen.getByRole('button', { name: /Оплатить/ })).toBeEnabled();
  });

  test("the bill's plain link after a hold let go: 'Блокировка снята' with the way and the amount held; a retry of a later decline says the decline", async () => {
    const releasedHold = { cardTypeOID: 'type-card', amount: 150000 };
    await renderChoose({ bill: { ...billWithEmail(), retry: null, releasedHold } });
    const notice = screen.getByText(t.releasedTitle).closest('div')!;
    expect(notice).toHaveTextContent(/Банковская карта, 150\s000,00 руб\./);
    expect(screen.queryByText(t.retryTitle)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Оплатить/ })).toBeEnabled();
    cleanup();
    await renderChoose({ bill: { ...billWithEmail(), retry: { cardTypeOID: 'type-card', email: null, ownAttempt: false, amount: 1000, reason: null }, releasedHold } });
    expect(screen.getByText(t.retryTitle)).toBeInTheDocument();
    expect(screen.queryByText(t.releasedTitle)).not.toBeInTheDocument();
  });

  const withOpenCard = () => ({
    ...billWithEmail(),
    openAttempt: { orderId: 'order-1', cardTypeOID: 'type-card', code: 'ALL' as const, status: 'created' as const, pointsUsed: 0 },
  });

  test("back from the bank's form: the step says the card payment is open before any other way; going back to it pays the same again (the same attempt)", async () => {
    const { requestPaymentUrl } = await renderChoose({ bill: withOpenCard(), resumePath: '/choosePaymentType' }, { reloaded: true });
    const notice = screen.getByText(t.openTitle).closest('div')!;
    expect(notice).toHaveTextContent(t.openWhat('Банковская карта'));
    // No other way is offered before the payer chooses to abandon the open one.
    expect(screen.queryByRole('radio', { name: /СБП/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Оплатить/ })).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: t.openResume }));
    expect(requestPaymentUrl.last.input).toMatchObject({ cardTypeOID: 'type-card', email: 'payer@example.com', pointsSum: null });
  });

  test('another way asks to confirm that the open one is abandoned, then takes the payer to the ways to pay', async () => {
    const { requestPaymentUrl } = await renderChoose({ bill: withOpenCard(), resumePath: '/choosePaymentType' }, { reloaded: true });
    await userEvent.click(screen.getByRole('button', { name: t.openAnother }));
    expect(screen.getByText(t.openConfirmTitle).closest('div')).toHaveTextContent(t.openConfirmWhat('Банковская карта'));
    expect(screen.queryByRole('radio', { name: /СБП/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: t.openConfirm }));
    expect(screen.queryByText(t.openTitle)).toBeNull();
    expect(screen.queryByText(t.openConfirmTitle)).toBeNull();
    expect(screen.getByRole('radio', { name: /СБП/ })).toHaveFocus();
    expect(requestPaymentUrl.calls).toHaveLength(0);
  });

  test('a first visit (another tab, the link opened again) finds the open attempt and says so too', async () => {
    await renderChoose({ bill: withOpenCard() });
    expect(screen.getByText(t.openTitle)).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /СБП/ })).toBeNull();
  });

  test('no attempt open: no notice, the ways to pay at once', async () => {
    await renderChoose({ bill: billWithEmail() });
    expect(screen.queryByText(t.openTitle)).toBeNull();
    expect(screen.getByRole('radio', { name: /СБП/ })).toBeInTheDocument();
  });
});

test('Pay failed: focus goes to what went wrong (the answer to the tap), not lost with the busy button', async () => {
  const { requestPaymentUrl } = await renderChoose();
  await userEvent.click(screen.getByRole('button', { name: PAY }));
  await act(async () => {
    requestPaymentUrl.last.answer.resolve({ success: false });
    await flush();
  });
  expect(screen.getByRole('alert')).toHaveFocus();
  expect(screen.getByRole('alert')).toHaveTextContent(/^Не удалось перейти к оплате/);
});
