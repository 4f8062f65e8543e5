import { registerMachine } from '../../src/machines/register';
import type { SendCodeInput } from '../../src/machines/accountFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import type { RegisterForm } from '../../src/services/types';
import { answer, fakeCall, flowInput, regBill, settle, startFlow } from '../fixtures/accountFlows';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const form: RegisterForm = { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79991234567', privacy: true };

function start() {
  const sendCode = fakeCall<AccountAnswer, SendCodeInput>();
  const log = jest.fn();
  const machine = registerMachine.provide({ actors: { sendCode: sendCode.logic }, actions: { 'log error': (_, { error }) => log(error) } });
  return { ...startFlow(machine, flowInput({ bill: regBill(), phone: '' })), sendCode, log };
}

test('Continue waits for the robot check', () => {
  const { flow, sendCode } = start();
  expect(flow.getSnapshot().context.showCaptcha).toBe(true);
  flow.send({ type: 'register.submit', form });
  expect(flow.getSnapshot().value).toBe('editing');
  expect(sendCode.inputs).toEqual([]);
});

test('a register code goes to the form phone; the checkout hears code.required with the form values', async () => {
  const { flow, told, sendCode } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'register.submit', form });
  expect(flow.getSnapshot().hasTag('busy')).toBe(true);
  expect(sendCode.inputs).toEqual([{ phone: '79991234567', purpose: 'register', objectOID: 'bill-reg', custNo: null, usePoints: false, captcha: 'tok' }]);
  sendCode.current.resolve(answer());
  await settle();
  expect(flow.getSnapshot().value).toBe('codeSent');
  expect(told).toEqual([{ type: 'code.required', checkType: 'register', phone: '79991234567', registerForm: form }]);
});

test('a refused send is logged and drops the used token', async () => {
  const { flow, told, sendCode, log } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'register.submit', form });
  sendCode.current.resolve(answer({ success: false, showCaptcha: true, error: 'Слишком много СМС' }));
  await settle();
  expect(flow.getSnapshot().value).toBe('editing');
  expect(flow.getSnapshot().context.captcha).toBeNull();
  expect(log).toHaveBeenCalledWith('Слишком много СМС');
  expect(told).toEqual([]);
});

test('a failed call is logged; the next try needs a new check', async () => {
  const { flow, sendCode, log } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'register.submit', form });
  sendCode.current.reject(new Error('offline'));
  await settle();
  expect(log).toHaveBeenCalledWith(new Error('offline'));
  flow.send({ type: 'register.submit', form });
  expect(flow.getSnapshot().value).toBe('editing');
  flow.send({ type: 'captcha.verified', token: 'tok-2' });
  flow.send({ type: 'captcha.expired' });
  expect(flow.getSnapshot().context.captcha).toBeNull();
});

test('a refusal tells the payer why: the wait the server named, else a short message; the next submit clears it', async () => {
  const { flow, sendCode } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'register.submit', form });
  sendCode.current.resolve(answer({ success: false, showCaptcha: true, secondsLeft: 1, error: 'too early' }));
  await settle();
  expect(flow.getSnapshot().context.error).toBe('Повторная отправка кода возможна через 1 секунду');

  flow.send({ type: 'captcha.verified', token: 'tok-2' });
  flow.send({ type: 'register.submit', form });
  expect(flow.getSnapshot().context.error).toBeNull();
  sendCode.current.reject(new Error('offline'));
  await settle();
  expect(flow.getSnapshot().context.error).toBe('Не удалось отправить код, попробуйте позже');
});
