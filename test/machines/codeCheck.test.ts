import { messages } from '../../src/services/messages';
import type { ActorRefFrom } from 'xstate';
import { codeCheckMachine, RESEND_SECONDS } from '../../src/machines/codeCheck';
import type { CheckCodeInput, RegisterAccountInput, RestorePasswordInput, SendCodeInput } from '../../src/machines/accountFlow';
import type { StepFlowInput } from '../../src/machines/checkout';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import type { RegisterForm } from '../../src/services/types';
import { answer, fakeCall, flowInput, regBill, settle, startFlow } from '../fixtures/accountFlows';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const form: RegisterForm = { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79991234567', privacy: true };

function start(input: Partial<StepFlowInput>) {
  const sendCode = fakeCall<AccountAnswer, SendCodeInput>();
  const checkCode = fakeCall<AccountAnswer, CheckCodeInput>();
  const restorePassword = fakeCall<AccountAnswer, RestorePasswordInput>();
  const registerAccount = fakeCall<AccountAnswer, RegisterAccountInput>();
  const log = jest.fn();
  const machine = codeCheckMachine.provide({
    actors: { sendCode: sendCode.logic, checkCode: checkCode.logic, restorePassword: restorePassword.logic, registerAccount: registerAccount.logic },
    actions: { 'log error': (_, { error }) => log(error) },
  });
  return { ...startFlow(machine, flowInput(input)), sendCode, checkCode, restorePassword, registerAccount, log };
}

const usePoints = { checkType: 'use-points' as const, phone: '79990000001', pointsToUse: 1000 };
const forgot = { checkType: 'forgot-password' as const, phone: '79990000002', bill: regBill() };
const register = { checkType: 'register' as const, phone: form.phone, registerForm: form, bill: regBill() };

const check = (flow: ActorRefFrom<typeof codeCheckMachine>) => (flow.getSnapshot().value as { check: string }).check;
const resend = (flow: ActorRefFrom<typeof codeCheckMachine>) => (flow.getSnapshot().value as { resend: string }).resend;

describe('the resend countdown', () => {
  test('counts 60 s down each second, then allows a resend', async () => {
    const { flow } = start(usePoints);
    expect(flow.getSnapshot().context.secondsLeft).toBe(RESEND_SECONDS);
    expect(resend(flow)).toBe('counting');
    await settle(1000);
    expect(flow.getSnapshot().context.secondsLeft).toBe(59);
    await settle(58_000);
    expect(flow.getSnapshot().context.secondsLeft).toBe(1);
    expect(resend(flow)).toBe('counting');
    await settle(1000);
    expect(flow.getSnapshot().context.secondsLeft).toBe(0);
    expect(resend(flow)).toBe('ready');
  });

  test('a resend before the countdown ends does nothing', () => {
    const { flow, sendCode } = start(usePoints);
    flow.send({ type: 'code.resend' });
    expect(sendCode.inputs).toEqual([]);
  });

  test('a resend sends the code again with the check type as purpose and restarts the countdown', async () => {
    const { flow, sendCode } = start(usePoints);
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    expect(resend(flow)).toBe('sending');
    expect(flow.getSnapshot().hasTag('sending')).toBe(true);
    expect(sendCode.inputs).toEqual([{ phone: '79990000001', purpose: 'use-points', objectOID: 'bill-1', custNo: 'C-100', usePoints: true, captcha: null }]);
    sendCode.current.resolve(answer({ secondsLeft: 60, showCaptcha: true }));
    await settle();
    expect(resend(flow)).toBe('counting');
    expect(flow.getSnapshot().context).toMatchObject({ secondsLeft: 60, showCaptcha: true });
  });

  test('a sent answer without secondsLeft restarts at 60', async () => {
    const { flow, sendCode } = start(forgot);
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    expect(sendCode.inputs[0]).toMatchObject({ purpose: 'forgot-password', custNo: null, usePoints: false, objectOID: 'bill-reg' });
    sendCode.current.resolve(answer());
    await settle();
    expect(flow.getSnapshot().context.secondsLeft).toBe(60);
  });

  test('too early: the countdown shows the wait the server gives', async () => {
    const { flow, sendCode, log } = start(usePoints);
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    sendCode.current.resolve(answer({ success: false, secondsLeft: 12, showCaptcha: true, error: 'too early' }));
    await settle();
    expect(resend(flow)).toBe('counting');
    expect(flow.getSnapshot().context.secondsLeft).toBe(12);
    expect(log).toHaveBeenCalledWith('too early');
  });

  test('a captcha refusal shows the check; the resend waits for it and then carries the token', async () => {
    const { flow, sendCode } = start(usePoints);
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    sendCode.current.resolve(answer({ success: false, showCaptcha: true }));
    await settle();
    expect(resend(flow)).toBe('ready');
    expect(flow.getSnapshot().context.showCaptcha).toBe(true);
    flow.send({ type: 'code.resend' });
    expect(sendCode.inputs).toHaveLength(1);
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'code.resend' });
    expect(sendCode.inputs[1]?.captcha).toBe('tok');
  });

  test('a failed resend call is logged and the link works again', async () => {
    const { flow, sendCode, log } = start(usePoints);
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    sendCode.current.reject(new Error('offline'));
    await settle();
    expect(resend(flow)).toBe('ready');
    expect(log).toHaveBeenCalledWith(new Error('offline'));
  });
});

describe('the code check', () => {
  test("fewer than four digits shows 'Введите код' and checks nothing", () => {
    const { flow, checkCode } = start(usePoints);
    flow.send({ type: 'code.submit', code: '12' });
    expect(flow.getSnapshot().context.error).toBe('Введите код');
    flow.send({ type: 'code.submit', code: '12a4' });
    expect(check(flow)).toBe('entering');
    expect(checkCode.inputs).toEqual([]);
  });

  test('use-points: a confirmed code tells the checkout code.confirmed at once', async () => {
    const { flow, told, checkCode } = start(usePoints);
    flow.send({ type: 'code.submit', code: '1234' });
    expect(check(flow)).toBe('checking');
    expect(flow.getSnapshot().hasTag('busy')).toBe(true);
    expect(checkCode.inputs).toEqual([{ code: '1234', phone: '79990000001', purpose: 'use-points', custNo: 'C-100', usePoints: true, captcha: null }]);
    checkCode.current.resolve(answer());
    await settle();
    expect(check(flow)).toBe('done');
    expect(told).toEqual([{ type: 'code.confirmed', checkType: 'use-points' }]);
  });

  test("a rejected code shows 'Ошибка проверки кода' and the captcha the server asks for; the next try carries the token", async () => {
    const { flow, told, checkCode, log } = start(usePoints);
    flow.send({ type: 'code.submit', code: '0000' });
    checkCode.current.resolve(answer({ success: false, showCaptcha: true, error: 'Ошибка проверки кода' }));
    await settle();
    expect(check(flow)).toBe('entering');
    expect(flow.getSnapshot().context).toMatchObject({ error: 'Ошибка проверки кода', showCaptcha: true });
    expect(log).toHaveBeenCalledWith('Ошибка проверки кода');

    flow.send({ type: 'code.submit', code: '1234' });
    expect(check(flow)).toBe('entering');
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'code.submit', code: '1234' });
    expect(flow.getSnapshot().context.error).toBeNull();
    expect(checkCode.inputs[1]?.captcha).toBe('tok');
    checkCode.current.resolve(answer());
    await settle();
    expect(told).toEqual([{ type: 'code.confirmed', checkType: 'use-points' }]);
  });

  test('a failed check call is logged and shows the code error', async () => {
    const { flow, checkCode, log } = start(usePoints);
    flow.send({ type: 'code.submit', code: '1234' });
    checkCode.current.reject(new Error('offline'));
    await settle();
    expect(check(flow)).toBe('entering');
    expect(flow.getSnapshot().context.error).toBe('Ошибка проверки кода');
    expect(log).toHaveBeenCalledWith(new Error('offline'));
  });

  test('forgot-password: a confirmed code asks for the password reset, then code.confirmed', async () => {
    const { flow, told, checkCode, restorePassword } = start(forgot);
    flow.send({ type: 'code.submit', code: '1234' });
    expect(checkCode.inputs[0]).toMatchObject({ purpose: 'forgot-password', custNo: null, usePoints: false });
    checkCode.current.resolve(answer());
    await settle();
    expect(check(flow)).toBe('restoringPassword');
    expect(flow.getSnapshot().hasTag('busy')).toBe(true);
    expect(restorePassword.inputs).toEqual([{ phone: '79990000002', captcha: null }]);
    expect(told).toEqual([]);
    restorePassword.current.resolve(answer());
    await settle();
    expect(told).toEqual([{ type: 'code.confirmed', checkType: 'forgot-password' }]);
  });

  test('forgot-password: a failed reset shows the captcha when asked and goes no further until tried again', async () => {
    const { flow, told, checkCode, restorePassword, log } = start(forgot);
    flow.send({ type: 'code.submit', code: '1234' });
    checkCode.current.resolve(answer());
    await settle();
    restorePassword.current.resolve(answer({ success: false, showCaptcha: true, error: 'Подтвердите, что вы не робот' }));
    await settle();
    expect(check(flow)).toBe('finishFailed');
    expect(flow.getSnapshot().hasTag('finish failed')).toBe(true);
    expect(flow.getSnapshot().context.showCaptcha).toBe(true);
    expect(log).toHaveBeenCalledWith('Подтвердите, что вы не робот');
    expect(told).toEqual([]);

    flow.send({ type: 'code.finish' });
    expect(check(flow)).toBe('finishFailed');
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'code.finish' });
    expect(check(flow)).toBe('restoringPassword');
    expect(restorePassword.inputs[1]).toEqual({ phone: '79990000002', captcha: 'tok' });
    restorePassword.current.reject(new Error('offline'));
    await settle();
    expect(check(flow)).toBe('finishFailed');
    expect(log).toHaveBeenCalledWith(new Error('offline'));
  });

  test('register: a confirmed code submits the registration with the form, then code.confirmed', async () => {
    const { flow, told, checkCode, registerAccount } = start(register);
    flow.send({ type: 'code.submit', code: '1234' });
    expect(checkCode.inputs[0]).toMatchObject({ purpose: 'register', phone: '79991234567' });
    checkCode.current.resolve(answer());
    await settle();
    expect(check(flow)).toBe('registering');
    expect(registerAccount.inputs).toEqual([{ form, captcha: null }]);
    registerAccount.current.resolve(answer());
    await settle();
    expect(told).toEqual([{ type: 'code.confirmed', checkType: 'register' }]);
  });

  test('register: a failed registration stays; a retry with the check passed registers', async () => {
    const { flow, told, checkCode, registerAccount } = start(register);
    flow.send({ type: 'code.submit', code: '1234' });
    checkCode.current.resolve(answer());
    await settle();
    registerAccount.current.resolve(answer({ success: false, showCaptcha: false, error: 'Этот телефон уже зарегистрирован' }));
    await settle();
    expect(check(flow)).toBe('finishFailed');
    expect(flow.getSnapshot().context.showCaptcha).toBe(false);
    // Without a robot check to show, the payer is still told the last step failed and Continue retries it.
    expect(flow.getSnapshot().context.error).toBe(messages.code.finishFailed);
    flow.send({ type: 'code.finish' });
    expect(check(flow)).toBe('registering');
    expect(flow.getSnapshot().context.error).toBeNull();
    registerAccount.current.reject(new Error('offline'));
    await settle();
    expect(check(flow)).toBe('finishFailed');
    flow.send({ type: 'code.finish' });
    registerAccount.current.resolve(answer());
    await settle();
    expect(told).toEqual([{ type: 'code.confirmed', checkType: 'register' }]);
  });

  test('the captcha token can expire before use', () => {
    const { flow } = start(usePoints);
    flow.send({ type: 'captcha.verified', token: 'tok' });
    expect(flow.getSnapshot().context.captcha).toBe('tok');
    flow.send({ type: 'captcha.expired' });
    expect(flow.getSnapshot().context.captcha).toBeNull();
  });
});
