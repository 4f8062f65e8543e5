import { act, screen } from '@testing-library/react';
import { answer } from '../fixtures/accountFlows';
import { continueAsHuman, continueButton, renderAccount, renderAccountAt } from './account.fixture';
import { stepMessages } from '../../src/services/stepMessages';

const openForgotPassword = () => renderAccountAt('Не помню пароль');

test('the screen asks for the phone, with the robot check; Continue waits for the check', async () => {
  const { user } = await openForgotPassword();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Введите номер телефона для восстановления доступа');
  expect(screen.getByRole('group', { name: 'Подтвердите, что вы не робот' })).toBeInTheDocument();
  expect(continueButton()).toBeDisabled();
  await user.click(screen.getByLabelText('Я не робот'));
  expect(continueButton()).toBeEnabled();
  await user.click(screen.getByLabelText('Я не робот'));
  expect(continueButton()).toBeDisabled();
});

test("an empty phone shows 'Не указан телефон' and the incomplete-form line", async () => {
  const { user, calls } = await openForgotPassword();
  await continueAsHuman(user);
  expect(screen.getByLabelText('Телефон')).toHaveAccessibleDescription('Не указан телефон');
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.validation.formIncomplete);
  expect(calls.sendCode.inputs).toEqual([]);
});

test('a valid phone sends a forgot-password code and opens the code screen with the free-call hint', async () => {
  const { user, calls, actor } = await openForgotPassword();
  await user.type(screen.getByLabelText('Телефон'), '9990000002');
  await continueAsHuman(user);
  expect(calls.sendCode.inputs).toEqual([
    { phone: '79990000002', purpose: 'forgot-password', objectOID: 'bill-reg', custNo: null, usePoints: false, captcha: '10000000-aaaa-bbbb-cccc-000000000001' },
  ]);
  expect(continueButton()).toBeDisabled();
  await act(async () => calls.sendCode.last.answer.resolve(answer()));
  expect(screen.getByRole('heading', { level: 1, name: 'Проверочный код был отправлен' })).toBeInTheDocument();
  expect(screen.getByText('на номер +7 (999) ***-**-02')).toBeInTheDocument();
  expect(actor.getSnapshot().context).toMatchObject({ sendSmsPhone: '79990000002', pointsToUse: null });

  await user.click(screen.getByRole('link', { name: 'Не приходит СМС? Подтвердите номер бесплатным звонком' }));
  expect(screen.getByRole('heading', { level: 1, name: 'Подтверждение звонком' })).toBeInTheDocument();
  expect(calls.lockFreeCall.inputs).toEqual([{ phone: '79990000002' }]);
});

test('a refused send says when a code may be sent again, or that it failed, as an alert', async () => {
  const { user, calls } = await openForgotPassword();
  await user.type(screen.getByLabelText('Телефон'), '9990000002');
  await continueAsHuman(user);
  await act(async () => calls.sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true, secondsLeft: 35, error: 'too early' })));
  expect(screen.getByRole('alert')).toHaveTextContent('Повторная отправка кода возможна через 35 секунд');
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Введите номер телефона для восстановления доступа');

  await continueAsHuman(user);
  expect(screen.queryByRole('alert')).toBeNull();
  await act(async () => calls.sendCode.last.answer.resolve(answer({ success: false, showCaptcha: false, secondsLeft: null, error: 'failed' })));
  expect(screen.getByRole('alert')).toHaveTextContent('Не удалось отправить код, попробуйте позже');
});

test('a refusal that asks for the robot check and names no wait says only that: no "try later" beside the box', async () => {
  const { user, calls } = await openForgotPassword();
  await user.type(screen.getByLabelText('Телефон'), '9990000002');
  await continueAsHuman(user);
  await act(async () => calls.sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true, secondsLeft: null, error: 'Подтвердите, что вы не робот' })));
  expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Подтвердите, что вы не робот']);
  expect(screen.queryByText('Не удалось отправить код, попробуйте позже')).toBeNull();
  // Ticked again, Continue sends the code; the instruction is gone.
  await continueAsHuman(user);
  expect(calls.sendCode.calls).toHaveLength(2);
  expect(screen.queryAllByRole('alert')).toEqual([]);
});

test('reloaded on the code screen after its code ran out: the phone typed before is in the field, and Continue sends it', async () => {
  const { user, calls } = await renderAccount({ resumePath: '/checkSendCode', codeDraft: { purpose: 'forgot-password', phone: '79990000002' } });
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Введите номер телефона для восстановления доступа');
  expect(screen.getByLabelText('Телефон')).toHaveValue('+7 (999) 000-00-02');
  await continueAsHuman(user);
  expect(calls.sendCode.last.input).toMatchObject({ phone: '79990000002', purpose: 'forgot-password' });
});
