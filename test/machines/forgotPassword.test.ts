import { forgotPasswordMachine } from '../../src/machines/forgotPassword';
import type { SendCodeInput } from '../../src/machines/accountFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import { answer, fakeCall, flowInput, regBill, settle, startFlow } from '../fixtures/accountFlows';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function start() {
  const sendCode = fakeCall<AccountAnswer, SendCodeInput>();
  const log = jest.fn();
  const machine = forgotPasswordMachine.provide({ actors: { sendCode: sendCode.logic }, actions: { 'log error': (_, { error }) => log(error) } });
  return { ...startFlow(machine, flowInput({ bill: regBill(), phone: '' })), sendCode, log };
}

test('the screen starts with the robot check; Continue does nothing until it is passed', () => {
  const { flow, sendCode } = start();
  expect(flow.getSnapshot().context).toMatchObject({ showCaptcha: true, captcha: null });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  expect(flow.getSnapshot().value).toBe('editing');
  expect(sendCode.inputs).toEqual([]);
});

test('a forgot-password code goes to the phone, then the checkout hears code.required with that phone', async () => {
  const { flow, told, sendCode } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  expect(flow.getSnapshot().value).toBe('sendingCode');
  expect(flow.getSnapshot().hasTag('busy')).toBe(true);
  expect(sendCode.inputs).toEqual([
    { phone: '79990000002', purpose: 'forgot-password', objectOID: 'bill-reg', custNo: null, usePoints: false, captcha: 'tok' },
  ]);
  sendCode.current.resolve(answer({ secondsLeft: 60 }));
  await settle();
  expect(flow.getSnapshot().value).toBe('codeSent');
  expect(told).toEqual([{ type: 'code.required', checkType: 'forgot-password', phone: '79990000002' }]);
});

test('a refused send is logged, the used token is dropped and nothing is told to the checkout', async () => {
  const { flow, told, sendCode, log } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  sendCode.current.resolve(answer({ success: false, showCaptcha: true, error: 'Подтвердите, что вы не робот' }));
  await settle();
  expect(flow.getSnapshot().value).toBe('editing');
  expect(flow.getSnapshot().context.captcha).toBeNull();
  expect(log).toHaveBeenCalledWith('Подтвердите, что вы не робот');
  expect(told).toEqual([]);
});

test('a failed call is logged and the form is usable again after a new check', async () => {
  const { flow, told, sendCode, log } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  sendCode.current.reject(new Error('offline'));
  await settle();
  expect(flow.getSnapshot().value).toBe('editing');
  expect(log).toHaveBeenCalledWith(new Error('offline'));
  flow.send({ type: 'captcha.verified', token: 'tok-2' });
  flow.send({ type: 'captcha.expired' });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  expect(flow.getSnapshot().value).toBe('editing');
  expect(told).toEqual([]);
});

test('a refusal tells the payer why: the wait the server named, else a short message; the next submit clears it', async () => {
  const { flow, sendCode } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  sendCode.current.resolve(answer({ success: false, showCaptcha: true, secondsLeft: 42, error: 'too early' }));
  await settle();
  expect(flow.getSnapshot().context.error).toBe('Повторная отправка кода возможна через 42 секунды');

  flow.send({ type: 'captcha.verified', token: 'tok-2' });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  expect(flow.getSnapshot().context.error).toBeNull();
  sendCode.current.resolve(answer({ success: false, showCaptcha: true, secondsLeft: null, error: 'hourly cap' }));
  await settle();
  expect(flow.getSnapshot().context.error).toBe('Не удалось отправить код, попробуйте позже');

  flow.send({ type: 'captcha.verified', token: 'tok-3' });
  flow.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  sendCode.current.reject(new Error('offline'));
  await settle();
  expect(flow.getSnapshot().context.error).toBe('Не удалось отправить код, попробуйте позже');
});
