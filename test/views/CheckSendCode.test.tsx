import { act, fireEvent, screen } from '@testing-library/react';
import { answer, pointsBill, accountBill } from '../fixtures/accountFlows';
import { renderAccount, sendAndLoad } from './account.fixture';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** The code screen as the payer reaches it: the points (or forgot-password) form asks, and the code was sent. */
async function openCode(purpose: 'use-points' | 'forgot-password' = 'use-points') {
  const rendered = await renderAccount({ bill: purpose === 'use-points' ? pointsBill() : accountBill(), advanceTimers: true });
  const { actor, calls } = rendered;
  if (purpose === 'use-points') {
    await sendAndLoad(actor, { type: 'nav.goTo', step: 'usePoints' });
    act(() => actor.send({ type: 'points.use', points: 1000 }));
  } else {
    await sendAndLoad(actor, { type: 'nav.goTo', step: 'forgotPassword' });
    const flow = actor.getSnapshot().children.code!;
    act(() => flow.send({ type: 'captcha.verified', token: 'tok' }));
    act(() => flow.send({ type: 'code.request', request: { purpose, phone: '79990000001' } }));
  }
  await act(async () => calls.sendCode.last.answer.resolve(answer({ secondsLeft: 60 })));
  return rendered;
}
const digit = (n: number) => screen.getByLabelText(`Цифра ${n} кода`);
const digits = () => [1, 2, 3, 4].map((n) => (digit(n) as HTMLInputElement).value).join('');

test('four single-digit boxes for the one-time code with the numeric keyboard, the 10-minute note', async () => {
  await openCode();
  expect(screen.getByRole('heading', { level: 1, name: 'Проверочный код был отправлен' })).toBeInTheDocument();
  expect(screen.getByRole('group', { name: 'Код из СМС' })).toBeInTheDocument();
  for (const n of [1, 2, 3, 4]) {
    expect(digit(n)).toHaveAttribute('autocomplete', 'one-time-code');
    expect(digit(n)).toHaveAttribute('inputmode', 'numeric');
    expect(digit(n)).toHaveAccessibleDescription('Код подтверждения действует 10 минут');
  }
  expect(screen.getByText('Код подтверждения действует 10 минут')).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: /бесплатным звонком/ })).not.toBeInTheDocument();
});

test('the screen opens with focus in the first box, ready for the code', async () => {
  await openCode();
  expect(digit(1)).toHaveFocus();
});

test('focus moves on each digit, non-digits are cleared, and the fourth digit submits the code', async () => {
  const { user, calls } = await openCode();
  await user.click(digit(1));
  await user.keyboard('1');
  expect(digit(2)).toHaveFocus();
  await user.keyboard('x');
  expect(digit(2)).toHaveValue('');
  expect(digit(2)).toHaveFocus();
  await user.keyboard('234');
  expect(digits()).toBe('1234');
  expect(calls.checkCode.inputs).toEqual([{ code: '1234', phone: null, objectOID: 'bill-1', purpose: 'use-points', custNo: 'C-100', usePoints: true, captcha: null }]);
});

test('Delete clears all four, and so does a click', async () => {
  const { user } = await openCode();
  await user.click(digit(1));
  await user.keyboard('12');
  await user.keyboard('{Delete}');
  expect(digits()).toBe('');
  expect(digit(1)).toHaveFocus();
  await user.keyboard('98');
  await user.click(digit(3));
  expect(digits()).toBe('');
});

test('a pasted four-digit code fills all four and is submitted', async () => {
  const { user, calls } = await openCode();
  await user.click(digit(1));
  await user.paste('5678');
  expect(digits()).toBe('5678');
  expect(calls.checkCode.inputs[0]?.code).toBe('5678');
});

test("autofill of the whole code into one box fills all four", async () => {
  const { calls } = await openCode();
  fireEvent.change(digit(1), { target: { value: '4321' } });
  expect(digits()).toBe('4321');
  expect(calls.checkCode.inputs[0]?.code).toBe('4321');
});

test("Continue with an incomplete code shows 'Введите код'", async () => {
  const { user, calls } = await openCode();
  await user.click(digit(1));
  await user.keyboard('12');
  await user.click(screen.getByRole('button', { name: 'Продолжить' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Введите код');
  expect(digit(1)).toHaveAccessibleDescription('Введите код Код подтверждения действует 10 минут');
  expect(calls.checkCode.inputs).toEqual([]);
});

test("a rejected code shows 'Ошибка проверки кода', empties the boxes and shows the robot check asked for", async () => {
  const { user, calls } = await openCode();
  await user.click(digit(1));
  await user.keyboard('0000');
  expect(screen.getByRole('button', { name: 'Продолжить' })).toBeDisabled();
  await act(async () => calls.checkCode.last.answer.resolve(answer({ success: false, showCaptcha: true })));
  expect(screen.getByRole('alert')).toHaveTextContent('Ошибка проверки кода');
  expect(digits()).toBe('');
  expect(digit(1)).toHaveFocus();
  // Typed and submitted before the box is ticked: nothing is checked, the robot check is the instruction, and the
  // rejection before it stays said.
  await user.keyboard('1234');
  await user.click(screen.getByRole('button', { name: 'Продолжить' }));
  expect(calls.checkCode.inputs).toHaveLength(1);
  expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Ошибка проверки кода', 'Подтвердите, что вы не робот']);
  // Pressed again before the tick: the robot check takes focus, so the press is answered.
  screen.getByLabelText('Я не робот').focus();
  await user.click(screen.getByRole('button', { name: 'Продолжить' }));
  expect(screen.getByRole('group', { name: 'Подтвердите, что вы не робот' })).toHaveFocus();
  await user.click(screen.getByLabelText('Я не робот'));
  await user.click(digit(1));
  await user.keyboard('1234');
  expect(calls.checkCode.inputs[1]).toMatchObject({ code: '1234', captcha: '10000000-aaaa-bbbb-cccc-000000000001' });
});

test("a wrong code says how many tries are left, with no robot check until the server asks; the right one goes on at once", async () => {
  const { user, calls } = await openCode();
  await user.click(digit(1));
  await user.keyboard('0000');
  await act(async () => calls.checkCode.last.answer.resolve(answer({ success: false, showCaptcha: false, triesLeft: 2 })));
  // The rule's words, then the tries left on a line of their own.
  expect(screen.getByRole('alert')).toHaveTextContent(/^Ошибка проверки кодаОсталось 2 попытки$/);
  expect(screen.getByText('Осталось 2 попытки')).toHaveClass('form-error-line');
  expect(screen.queryByLabelText('Я не робот')).toBeNull();
  await user.keyboard('1234');
  expect(calls.checkCode.inputs[1]).toMatchObject({ code: '1234', captcha: null });
  // Being checked, the old error is gone.
  expect(screen.queryByText('Осталось 2 попытки')).toBeNull();
});

test.each([
  [1, 'Ошибка проверки кодаОсталась 1 попытка'],
  [0, 'Ошибка проверки кодаПопыток не осталось — запросите новый код'],
])('%i tries left reads: %s', async (triesLeft, text) => {
  const { user, calls } = await openCode();
  await user.click(digit(1));
  await user.keyboard('0000');
  await act(async () => calls.checkCode.last.answer.resolve(answer({ success: false, triesLeft })));
  expect(screen.getByRole('alert')).toHaveTextContent(text);
});

test('the resend countdown in Russian plural forms, then the resend link', async () => {
  const { user, calls } = await openCode();
  expect(screen.getByText('Повторная отправка кода возможна через 60 секунд')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Отправить код повторно' })).not.toBeInTheDocument();
  act(() => jest.advanceTimersByTime(1000));
  expect(screen.getByText('Повторная отправка кода возможна через 59 секунд')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(18_000));
  expect(screen.getByText('Повторная отправка кода возможна через 41 секунду')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(39_000));
  expect(screen.getByText('Повторная отправка кода возможна через 2 секунды')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(1000));
  expect(screen.getByText('Повторная отправка кода возможна через 1 секунду')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(1000));
  await user.click(screen.getByRole('button', { name: 'Отправить код повторно' }));
  expect(calls.sendCode.inputs).toHaveLength(2);
  expect(calls.sendCode.last.input).toEqual({ phone: null, purpose: 'use-points', objectOID: 'bill-1', custNo: 'C-100', usePoints: true, captcha: null });
  await act(async () => calls.sendCode.last.answer.resolve(answer({ secondsLeft: 60 })));
  expect(screen.getByText('Повторная отправка кода возможна через 60 секунд')).toBeInTheDocument();
  // The link gave way to the countdown: focus is on the screen's heading, not lost.
  expect(screen.getByRole('heading', { level: 1, name: 'Проверочный код был отправлен' })).toHaveFocus();
});

test('forgot-password: a confirmed code resets the password and the sign-in form shows the notice', async () => {
  const { user, calls } = await openCode('forgot-password');
  expect(screen.getByRole('link', { name: 'Не приходит СМС? Подтвердите номер бесплатным звонком' })).toBeInTheDocument();
  await user.click(digit(1));
  await user.keyboard('1234');
  expect(calls.checkCode.inputs[0]).toMatchObject({ purpose: 'forgot-password', custNo: null });
  await act(async () => calls.checkCode.last.answer.resolve(answer()));
  await act(async () => calls.restorePassword.last.answer.resolve(answer()));
  expect(screen.getByRole('heading', { name: 'Авторизация' })).toBeInTheDocument();
  expect(screen.getByText('Новый пароль отправлен вам по СМС')).toBeInTheDocument();
});

test('a failed reset shows the robot check and Continue tries the reset again once it is passed', async () => {
  const { user, calls } = await openCode('forgot-password');
  await user.click(digit(1));
  await user.keyboard('1234');
  await act(async () => calls.checkCode.last.answer.resolve(answer()));
  await act(async () => calls.restorePassword.last.answer.resolve(answer({ success: false, showCaptcha: true })));
  const next = screen.getByRole('button', { name: 'Продолжить' });
  // Pressed before the box: the robot check is what to do, and the reset is not tried.
  await user.click(next);
  expect(calls.restorePassword.inputs).toHaveLength(1);
  expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Подтвердите, что вы не робот']);
  // Pressed again before the tick: the robot check takes focus, so the press is answered.
  screen.getByLabelText('Я не робот').focus();
  await user.click(screen.getByRole('button', { name: 'Продолжить' }));
  expect(screen.getByRole('group', { name: 'Подтвердите, что вы не робот' })).toHaveFocus();
  await user.click(screen.getByLabelText('Я не робот'));
  await user.click(next);
  expect(calls.restorePassword.inputs[1]).toEqual({ request: { purpose: 'forgot-password', phone: '79990000001' }, captcha: '10000000-aaaa-bbbb-cccc-000000000001' });
});
