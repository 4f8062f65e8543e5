import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountBill } from '../fixtures/accountFlows';
import { renderAccount, sendAndLoad } from './account.fixture';

const NUMBER = { callPhone: '78005008275', callPhonePretty: '+7 (800) 500-82-75' };

/** The free-call screen, reached as a payer does: the restore form, its code sent, then the free-call link. */
async function openFreeCall() {
  const rendered = await renderAccount({ bill: accountBill() });
  await sendAndLoad(rendered.actor, { type: 'nav.goTo', step: 'forgotPassword' });
  act(() => rendered.actor.send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000002' } }));
  await sendAndLoad(rendered.actor, { type: 'nav.goTo', step: 'checkByPhone' });
  return rendered;
}

test("the number the provider gave for this page, a tel: link 'Позвонить'; getting it and the wait are announced", async () => {
  const { calls } = await openFreeCall();
  expect(screen.getByRole('heading', { level: 1, name: 'Подтверждение звонком' })).toBeInTheDocument();
  expect(calls.lockFreeCall.inputs).toEqual([{ phone: '79990000002' }]);
  expect(screen.getByRole('status')).toHaveTextContent('Получаем номер для звонка…');
  // No number before the provider's: nothing to call yet.
  expect(screen.queryByRole('link', { name: 'Позвонить' })).toBeNull();
  await act(async () => calls.lockFreeCall.last.answer.resolve(NUMBER));
  expect(screen.getByText('+7 (800) 500-82-75')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Позвонить' })).toHaveAttribute('href', 'tel:+78005008275');
  // Which phone the call must come from: the one the code went to, masked as the code screen shows it.
  expect(screen.getByText('Звоните с номера +7 (999) ***-**-02 — только такой звонок подтвердит номер')).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('Ожидаем ваш звонок');
});

test('no check started: no number, and an alert that says so', async () => {
  const { calls } = await openFreeCall();
  await act(async () => calls.lockFreeCall.last.answer.resolve(null));
  expect(screen.getByRole('alert')).toHaveTextContent('Не удалось получить номер для звонка');
  expect(screen.queryByRole('link', { name: 'Позвонить' })).toBeNull();
  expect(screen.getByRole('status')).toHaveTextContent('');
});

test('a call two pages waited for: the payer is told to start again, and starting again gets a new number', async () => {
  jest.useFakeTimers();
  try {
    const { calls } = await openFreeCall();
    await act(async () => calls.lockFreeCall.last.answer.resolve(NUMBER));
    await act(async () => void jest.advanceTimersByTime(5000));
    await act(async () => calls.checkFreeCall.last.answer.resolve('conflict'));
    expect(screen.getByRole('alert')).toHaveTextContent('ждали сразу на двух страницах');
    expect(screen.queryByRole('link', { name: 'Позвонить' })).toBeNull();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'Начать заново' }));
    expect(calls.lockFreeCall.inputs).toHaveLength(2);
    await act(async () => calls.lockFreeCall.last.answer.resolve({ callPhone: '78005008276', callPhonePretty: '+7 (800) 500-82-76' }));
    expect(screen.getByRole('link', { name: 'Позвонить' })).toHaveAttribute('href', 'tel:+78005008276');
    expect(screen.queryByRole('alert')).toBeNull();
  } finally {
    jest.useRealTimers();
  }
});
