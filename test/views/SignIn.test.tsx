import { act, screen, within } from '@testing-library/react';
import { answer } from '../fixtures/accountFlows';
import { renderAccount, sendAndLoad } from './account.fixture';
import { stepMessages } from '../../src/services/stepMessages';

const continueButton = () => screen.getByRole('button', { name: 'Продолжить' });

test('with nobody signed in the account step shows the sign-in form', async () => {
  await renderAccount();
  expect(screen.getByRole('heading', { name: 'Авторизация' })).toBeInTheDocument();
  expect(screen.getByLabelText('Телефон')).toHaveAttribute('type', 'tel');
  expect(screen.getByLabelText('Пароль')).toHaveAttribute('type', 'password');
  expect(screen.getByRole('link', { name: 'Не помню пароль' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Зарегистрироваться' })).toBeInTheDocument();
  expect(continueButton()).toBeEnabled();
  expect(screen.queryByLabelText('Я не робот')).not.toBeInTheDocument();
});

test("an empty submit shows 'Не указан телефон', 'Нужно ввести пароль' and the incomplete-form line", async () => {
  const { user, calls } = await renderAccount();
  await user.click(continueButton());
  expect(screen.getByLabelText('Телефон')).toHaveAccessibleDescription('Не указан телефон');
  expect(screen.getByLabelText('Пароль')).toHaveAccessibleDescription('Нужно ввести пароль');
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.validation.formIncomplete);
  expect(calls.login.inputs).toEqual([]);
});

test("a phone not starting with 9 shows 'Номер должен начинаться с 9'; all filled but wrong is 'Sorry, …'", async () => {
  const { user } = await renderAccount();
  await user.type(screen.getByLabelText('Телефон'), '5990000000');
  await user.type(screen.getByLabelText('Пароль'), 'secret');
  await user.click(continueButton());
  expect(screen.getByLabelText('Телефон')).toHaveAccessibleDescription('Номер должен начинаться с 9');
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.validation.formIncorrect);
});

test("a password holding a control character shows 'Нужно ввести пароль' and is not sent", async () => {
  const { user, calls } = await renderAccount();
  await user.type(screen.getByLabelText('Телефон'), '9990000001');
  await user.click(screen.getByLabelText('Пароль'));
  await user.paste('sec\u001bret');
  await user.click(continueButton());
  expect(screen.getByLabelText('Пароль')).toHaveAccessibleDescription('Нужно ввести пароль');
  expect(calls.login.inputs).toEqual([]);
});

test("a short phone shows 'Введите верный номер телефона'", async () => {
  const { user } = await renderAccount();
  const phone = screen.getByLabelText('Телефон');
  await user.type(phone, '999123');
  await user.tab();
  expect(phone).toHaveAccessibleDescription('Введите верный номер телефона');
});

test('the phone is shown with the mask and sent as digits only; a refusal shows the failure and the robot check', async () => {
  const { user, calls, told } = await renderAccount();
  const phone = screen.getByLabelText('Телефон');
  await user.type(phone, '9990000002');
  expect(phone).toHaveValue('+7 (999) 000-00-02');
  await user.type(screen.getByLabelText('Пароль'), 'wrong{Enter}');
  expect(calls.login.inputs).toEqual([{ phone: '79990000002', password: 'wrong', captcha: null }]);
  expect(continueButton()).toBeDisabled();

  await act(async () => calls.login.last.answer.resolve(answer({ success: false, showCaptcha: true, status: 401 })));
  // SPEC's words as the error's heading, focused; the server's reason under them.
  const failure = screen.getByRole('alert');
  expect(within(failure).getByRole('heading', { name: 'Не удалось авторизоваться' })).toHaveFocus();
  expect(failure).toHaveTextContent('Неверный телефон или пароль');
  expect(continueButton()).toBeDisabled();
  const robot = screen.getByRole('group', { name: 'Подтвердите, что вы не робот' });
  await user.click(within(robot).getByLabelText('Я не робот'));
  expect(continueButton()).toBeEnabled();

  await user.click(continueButton());
  expect(calls.login.inputs[1]).toEqual({ phone: '79990000002', password: 'wrong', captcha: '10000000-aaaa-bbbb-cccc-000000000001' });
  await act(async () => calls.login.last.answer.resolve(answer()));
  expect(told).toContainEqual({ type: 'user.signedIn' });
});

test("the notices after a password reset and after a registration", async () => {
  const { actor } = await renderAccount();
  act(() => actor.send({ type: 'code.confirmed', request: { purpose: 'forgot-password', phone: '79990000002' } }));
  expect(screen.getByRole('status')).toHaveTextContent('Новый пароль отправлен вам по СМС');
  act(() => actor.send({ type: 'code.confirmed', request: { purpose: 'register', phone: '79990000002', form: { surname: 'И', name: 'И', patronymic: 'И', phone: '79990000002', privacy: true } } }));
  expect(screen.getByRole('status')).toHaveTextContent('Регистрация успешна, пароль был отправлен вам по СМС');
});

test('after a registration the form has the phone the password went to, and focus is on the password', async () => {
  const { actor, user, calls } = await renderAccount();
  await user.click(screen.getByRole('link', { name: 'Зарегистрироваться' }));
  act(() => actor.send({ type: 'code.confirmed', request: { purpose: 'register', phone: '79990000007', form: { surname: 'И', name: 'И', patronymic: 'И', phone: '79990000007', privacy: true } } }));
  expect(screen.getByRole('status')).toHaveTextContent('Регистрация успешна, пароль был отправлен вам по СМС');
  expect(screen.getByLabelText('Телефон')).toHaveValue('+7 (999) 000-00-07');
  expect(screen.getByLabelText('Пароль')).toHaveFocus();
  await user.keyboard('from-sms{Enter}');
  expect(calls.login.inputs).toEqual([{ phone: '79990000007', password: 'from-sms', captcha: null }]);
});

test.each([
  [429, false, 'Слишком много попыток входа. Попробуйте позже'],
  [400, true, 'Подтвердите, что вы не робот, и войдите еще раз'],
  [503, false, 'Сервис входа не ответил. Попробуйте еще раз'],
])('a refusal with status %i says why under the heading', async (status, showCaptcha, reason) => {
  const { user, calls } = await renderAccount();
  await user.type(screen.getByLabelText('Телефон'), '9990000002');
  await user.type(screen.getByLabelText('Пароль'), 'x{Enter}');
  await act(async () => calls.login.last.answer.resolve(answer({ success: false, showCaptcha, status })));
  expect(screen.getByRole('alert')).toHaveTextContent(`Не удалось авторизоваться${reason}`);
});

test('signed in, the form gives way to the payer\'s card and focus goes to the step heading', async () => {
  const { actor } = await renderAccount();
  screen.getByLabelText('Телефон').focus();
  act(() => actor.send({ type: 'session.updated', bill: actor.getSnapshot().context.bill, user: { email: null, name: 'Анна', phone: '79990000002', oid: 'u-1', picture: null } }));
  expect(screen.queryByRole('heading', { name: 'Авторизация' })).toBeNull();
  expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
});

test('the phone typed is kept for a reload, the password never', async () => {
  const { user, actor } = await renderAccount();
  await user.type(screen.getByLabelText('Телефон'), '9990000002');
  await user.type(screen.getByLabelText('Пароль'), 'secret');
  expect(actor.getSnapshot().context.typed).toEqual({ signInPhone: '79990000002' });
  expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('secret');
});

test("'Не помню пароль' goes to forgot-password and 'Зарегистрироваться' to register", async () => {
  const { user, actor } = await renderAccount();
  await user.click(screen.getByRole('link', { name: 'Не помню пароль' }));
  expect(screen.getByRole('heading', { level: 1, name: 'Введите номер телефона для восстановления доступа' })).toBeInTheDocument();
  await sendAndLoad(actor, { type: 'nav.back' });
  await user.click(screen.getByRole('link', { name: 'Зарегистрироваться' }));
  expect(screen.getByRole('heading', { level: 1, name: 'Заполните анкету клиента' })).toBeInTheDocument();
});
