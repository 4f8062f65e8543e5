import { waitFor } from 'xstate';
import { codeFlowMachine, nothingToFinish, RESEND_SECONDS, type CodeFlowInput, type CodeRequest, type FinishInput } from '../../src/machines/codeFlow';
import type { CheckCodeInput, SendCodeInput } from '../../src/machines/accountFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import type { RegisterForm } from '../../src/services/types';
import { answer, settle, startFlow } from '../fixtures/accountFlows';
import { fakeRequest } from '../fixtures/fakes';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const form: RegisterForm = { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79991234567', privacy: true };

const inputs = {
  points: { purpose: 'use-points', captcha: 'when asked', objectOID: 'bill-1', custNo: 'C-100' },
  password: { purpose: 'forgot-password', captcha: 'always', objectOID: 'bill-reg', custNo: null },
  registration: { purpose: 'register', captcha: 'always', objectOID: 'bill-reg', custNo: null },
} satisfies Record<string, CodeFlowInput>;

const requests = {
  points: { purpose: 'use-points', phone: '+7 (999) ***-**-01', points: 1000 },
  password: { purpose: 'forgot-password', phone: '79990000002' },
  registration: { purpose: 'register', phone: form.phone, form },
} satisfies Record<keyof typeof inputs, CodeRequest>;

function start(kind: keyof typeof inputs, finishing = kind !== 'points') {
  const sendCode = fakeRequest<AccountAnswer, SendCodeInput>();
  const checkCode = fakeRequest<AccountAnswer, CheckCodeInput>();
  const finish = fakeRequest<AccountAnswer, FinishInput>();
  const log = jest.fn();
  const machine = codeFlowMachine.provide({
    actors: { sendCode: sendCode.logic, checkCode: checkCode.logic, finish: finishing ? finish.logic : nothingToFinish },
    actions: { 'log error': (_, { error }) => log(error) },
  });
  const run = startFlow(machine, inputs[kind]);
  const request = () => run.flow.send({ type: 'code.request', request: requests[kind] });
  /** The server answers the newest call of `call` (a right code, a finish that worked, unless `reply` says otherwise) and the flow has heard it. */
  const answers = (call: typeof checkCode | typeof finish) => async (reply: AccountAnswer = answer()) => {
    call.last.answer.resolve(reply);
    await settle();
  };
  return { ...run, sendCode, checkCode, finish, log, request, checked: answers(checkCode), finished: answers(finish) };
}

/** Asks for the code and lets the server send it: the flow is on the code screen. */
async function atCodeScreen(kind: keyof typeof inputs, finishing?: boolean) {
  const run = start(kind, finishing);
  run.flow.send({ type: 'captcha.verified', token: 'tok' });
  run.request();
  run.sendCode.last.answer.resolve(answer({ secondsLeft: 60 }));
  await settle();
  return run;
}

const check = (flow: ReturnType<typeof start>['flow']) => (flow.getSnapshot().value as { codeSent: { check: string } }).codeSent.check;
const resend = (flow: ReturnType<typeof start>['flow']) => (flow.getSnapshot().value as { codeSent: { resend: string } }).codeSent.resend;

describe('asking for a code (the step’s form)', () => {
  test('forgot-password and register always have the robot check; a request waits for it', () => {
    for (const kind of ['password', 'registration'] as const) {
      const { flow, sendCode, request } = start(kind);
      expect(flow.getSnapshot().context).toMatchObject({ showCaptcha: true, captcha: null });
      request();
      expect(flow.getSnapshot().value).toBe('asking');
      expect(sendCode.inputs).toEqual([]);
    }
  });

  test('the code goes to the phone of the request, with its purpose; the checkout hears code.sent', async () => {
    const { flow, told, sendCode, request } = start('registration');
    flow.send({ type: 'captcha.verified', token: 'tok' });
    request();
    expect(flow.getSnapshot().value).toBe('sending');
    expect(flow.getSnapshot().hasTag('busy')).toBe(true);
    expect(sendCode.inputs).toEqual([{ phone: '79991234567', purpose: 'register', objectOID: 'bill-reg', custNo: null, usePoints: false, captcha: 'tok' }]);
    sendCode.last.answer.resolve(answer({ secondsLeft: 60 }));
    await settle();
    expect(flow.getSnapshot().hasTag('code sent')).toBe(true);
    expect(told).toEqual([{ type: 'code.sent', request: requests.registration }]);
  });

  test('a use-points code carries the customer number; its form shows the check only when the server asks', async () => {
    const { flow, told, sendCode, request, log } = start('points');
    expect(flow.getSnapshot().context.showCaptcha).toBe(false);
    request();
    // The points code goes to the bill's own phone, which the server takes from the bill: the page names none.
    expect(sendCode.last.input).toEqual({ phone: null, purpose: 'use-points', objectOID: 'bill-1', custNo: 'C-100', usePoints: true, captcha: null });
    sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true, error: 'Подтвердите, что вы не робот' }));
    await settle();
    expect(flow.getSnapshot().value).toBe('asking');
    expect(flow.getSnapshot().context.showCaptcha).toBe(true);
    expect(log).toHaveBeenCalledWith('Подтвердите, что вы не робот');

    request();
    expect(sendCode.inputs).toHaveLength(1);
    flow.send({ type: 'captcha.verified', token: 'tok' });
    request();
    expect(sendCode.inputs[1]?.captcha).toBe('tok');
    sendCode.last.answer.resolve(answer());
    await settle();
    expect(told).toEqual([{ type: 'code.sent', request: requests.points }]);
  });

  test('a refusal says why: the wait the server named, else that no code went; the used token is dropped; the next request clears it', async () => {
    const { flow, told, sendCode, request, log } = start('password');
    flow.send({ type: 'captcha.verified', token: 'tok' });
    request();
    sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true, secondsLeft: 42, error: 'too early' }));
    await settle();
    expect(flow.getSnapshot().value).toBe('asking');
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'not sent', secondsLeft: 42 }, captcha: null, showCaptcha: true });
    expect(log).toHaveBeenCalledWith('too early');

    flow.send({ type: 'captcha.verified', token: 'tok-2' });
    request();
    expect(flow.getSnapshot().context.problem).toBeNull();
    // The server does not ask for the check here, but this screen always has it.
    sendCode.last.answer.resolve(answer({ success: false, showCaptcha: false, secondsLeft: null, error: 'hourly cap' }));
    await settle();
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'not sent', secondsLeft: null }, showCaptcha: true });

    flow.send({ type: 'captcha.verified', token: 'tok-3' });
    request();
    sendCode.last.answer.reject(new Error('offline'));
    await settle();
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'not sent', secondsLeft: null }, captcha: null });
    expect(log).toHaveBeenCalledWith(new Error('offline'));
    expect(told).toEqual([]);
  });

  test('the server asks for the robot check and names no wait: the check is the one thing to do, not "try later"', async () => {
    const { flow, sendCode, request } = start('points');
    request();
    sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true, secondsLeft: null, error: 'Подтвердите, что вы не робот' }));
    await settle();
    expect(flow.getSnapshot().value).toBe('asking');
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'robot check' }, showCaptcha: true, captcha: null });
    // Ticked, the same request goes again with the token and the instruction is gone.
    flow.send({ type: 'captcha.verified', token: 'tok' });
    request();
    expect(flow.getSnapshot().context.problem).toBeNull();
    expect(sendCode.last.input.captcha).toBe('tok');
  });

  test('the provider did not take the text: that is what the payer hears, though the server asks for the check again', async () => {
    const { flow, sendCode, request } = start('points');
    request();
    sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true, secondsLeft: null, smsFailed: true, error: 'Не удалось отправить СМС' }));
    await settle();
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'sms failed' }, showCaptcha: true });
  });

  test('a token that expires does not count', () => {
    const { flow, sendCode, request } = start('password');
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'captcha.expired' });
    request();
    expect(sendCode.inputs).toEqual([]);
  });
});

describe('the resend countdown', () => {
  test('counts 60 s down each second, then allows a resend', async () => {
    const { flow } = await atCodeScreen('points');
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

  test('a resend before the countdown ends does nothing', async () => {
    const { flow, sendCode } = await atCodeScreen('points');
    flow.send({ type: 'code.resend' });
    expect(sendCode.inputs).toHaveLength(1);
  });

  test('the code screen shows the robot check only when the server asks, whatever the form’s policy', async () => {
    const { flow } = await atCodeScreen('password');
    expect(flow.getSnapshot().context).toMatchObject({ showCaptcha: false, captcha: null, captchaPolicy: 'when asked' });
  });

  test('a resend sends the code again with the same purpose and restarts the countdown at the server’s figure', async () => {
    const { flow, sendCode } = await atCodeScreen('points');
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    expect(resend(flow)).toBe('resending');
    expect(flow.getSnapshot().hasTag('sending')).toBe(true);
    // The points code goes to the bill's own phone, which the server takes from the bill: the page names none.
    expect(sendCode.last.input).toEqual({ phone: null, purpose: 'use-points', objectOID: 'bill-1', custNo: 'C-100', usePoints: true, captcha: null });
    sendCode.last.answer.resolve(answer({ secondsLeft: 60, showCaptcha: true }));
    await settle();
    expect(resend(flow)).toBe('counting');
    expect(flow.getSnapshot().context).toMatchObject({ secondsLeft: 60, showCaptcha: true });
  });

  test('a sent answer without secondsLeft restarts at 60', async () => {
    const { flow, sendCode } = await atCodeScreen('password');
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    expect(sendCode.last.input).toMatchObject({ purpose: 'forgot-password', custNo: null, usePoints: false, objectOID: 'bill-reg' });
    sendCode.last.answer.resolve(answer());
    await settle();
    expect(flow.getSnapshot().context.secondsLeft).toBe(60);
  });

  test('too early: the countdown shows the wait the server gives', async () => {
    const { flow, sendCode, log } = await atCodeScreen('points');
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    sendCode.last.answer.resolve(answer({ success: false, secondsLeft: 12, showCaptcha: true, error: 'too early' }));
    await settle();
    expect(resend(flow)).toBe('counting');
    expect(flow.getSnapshot().context.secondsLeft).toBe(12);
    expect(log).toHaveBeenCalledWith('too early');
  });

  test('a captcha refusal shows the check and the resend works again; the next one carries the token', async () => {
    const { flow, sendCode } = await atCodeScreen('points');
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true }));
    await settle();
    expect(resend(flow)).toBe('ready');
    expect(flow.getSnapshot().context.showCaptcha).toBe(true);
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'code.resend' });
    expect(sendCode.last.input.captcha).toBe('tok');
  });

  test('a failed resend call is logged and the link works again', async () => {
    const { flow, sendCode, log } = await atCodeScreen('points');
    await settle(60_000);
    flow.send({ type: 'code.resend' });
    sendCode.last.answer.reject(new Error('offline'));
    await settle();
    expect(resend(flow)).toBe('ready');
    expect(log).toHaveBeenCalledWith(new Error('offline'));
  });
});

describe('the code check', () => {
  test('fewer than four digits is an incomplete code and checks nothing', async () => {
    const { flow, checkCode } = await atCodeScreen('points');
    flow.send({ type: 'code.submit', code: '12' });
    expect(flow.getSnapshot().context.problem).toEqual({ kind: 'code incomplete' });
    flow.send({ type: 'code.submit', code: '12a4' });
    expect(check(flow)).toBe('entering');
    expect(checkCode.inputs).toEqual([]);
  });

  test('use-points: a right code needs nothing more; the checkout hears code.confirmed with the request', async () => {
    const { flow, told, checkCode } = await atCodeScreen('points', false);
    flow.send({ type: 'code.submit', code: '1234' });
    expect(check(flow)).toBe('checking');
    expect(flow.getSnapshot().hasTag('busy')).toBe(true);
    expect(checkCode.inputs).toEqual([{ code: '1234', phone: null, objectOID: 'bill-1', purpose: 'use-points', custNo: 'C-100', usePoints: true, captcha: null }]);
    checkCode.last.answer.resolve(answer());
    const done = await waitFor(flow, (state) => state.status === 'done');
    expect(done.output).toEqual({ request: requests.points });
    expect(told).toEqual([{ type: 'code.sent', request: requests.points }, { type: 'code.confirmed', request: requests.points }]);
  });

  test('a rejected code says the tries left, with no robot check until the server asks for it; a right code then goes on', async () => {
    const { flow, told, checked } = await atCodeScreen('points', false);
    flow.send({ type: 'code.submit', code: '0000' });
    await checked(answer({ success: false, showCaptcha: false, triesLeft: 4, error: 'Ошибка проверки кода' }));
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'code rejected', triesLeft: 4 }, showCaptcha: false });
    // The right code is checked at once, and the error goes.
    flow.send({ type: 'code.submit', code: '1234' });
    expect(check(flow)).toBe('checking');
    expect(flow.getSnapshot().context.problem).toBeNull();
    await checked();
    expect(told.at(-1)).toEqual({ type: 'code.confirmed', request: requests.points });
  });

  test('a rejected code shows the problem and the captcha the server asks for; the next try carries the token', async () => {
    const { flow, told, checkCode, log, checked } = await atCodeScreen('points', false);
    flow.send({ type: 'code.submit', code: '0000' });
    await checked(answer({ success: false, showCaptcha: true, triesLeft: 3, error: 'Ошибка проверки кода' }));
    expect(check(flow)).toBe('entering');
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'code rejected', triesLeft: 3 }, showCaptcha: true });
    expect(log).toHaveBeenCalledWith('Ошибка проверки кода');

    // Submitted before ticking: nothing is checked, and the robot check is what the payer is told to do.
    flow.send({ type: 'code.submit', code: '1234' });
    expect(check(flow)).toBe('entering');
    // The rejection before it stays with the robot check, so its tries left are still said.
    expect(flow.getSnapshot().context.problem).toEqual({ kind: 'robot check', rejected: { triesLeft: 3 } });
    expect(checkCode.inputs).toHaveLength(1);
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'code.submit', code: '1234' });
    expect(flow.getSnapshot().context.problem).toBeNull();
    expect(checkCode.inputs[1]?.captcha).toBe('tok');
    await checked();
    expect(told.at(-1)).toEqual({ type: 'code.confirmed', request: requests.points });
  });

  test('a failed check call is logged and shows the code as rejected', async () => {
    const { flow, checkCode, log } = await atCodeScreen('points');
    flow.send({ type: 'code.submit', code: '1234' });
    checkCode.last.answer.reject(new Error('offline'));
    await settle();
    expect(check(flow)).toBe('entering');
    expect(flow.getSnapshot().context.problem).toEqual({ kind: 'code rejected', triesLeft: null });
    expect(log).toHaveBeenCalledWith(new Error('offline'));
  });
});

describe('what a right code unlocks (the caller’s finish)', () => {
  test('forgot-password: a right code runs the finish with the request and the token, then code.confirmed', async () => {
    const { flow, told, checkCode, finish, checked, finished } = await atCodeScreen('password');
    flow.send({ type: 'code.submit', code: '1234' });
    expect(checkCode.inputs[0]).toMatchObject({ purpose: 'forgot-password', custNo: null, usePoints: false });
    await checked();
    expect(check(flow)).toBe('finishing');
    expect(flow.getSnapshot().hasTag('busy')).toBe(true);
    expect(finish.inputs).toEqual([{ request: requests.password, captcha: null }]);
    expect(told).toEqual([{ type: 'code.sent', request: requests.password }]);
    await finished();
    expect(told.at(-1)).toEqual({ type: 'code.confirmed', request: requests.password });
  });

  test('a failed finish shows the captcha when asked and goes no further until Continue with the check passed', async () => {
    const { flow, told, finish, log, checked, finished } = await atCodeScreen('password');
    flow.send({ type: 'code.submit', code: '1234' });
    await checked();
    await finished(answer({ success: false, showCaptcha: true, error: 'Подтвердите, что вы не робот' }));
    expect(check(flow)).toBe('finishFailed');
    expect(flow.getSnapshot().context).toMatchObject({ problem: { kind: 'finish failed' }, showCaptcha: true });
    expect(log).toHaveBeenCalledWith('Подтвердите, что вы не робот');
    expect(told).toHaveLength(1);

    flow.send({ type: 'code.submit', code: '' });
    expect(check(flow)).toBe('finishFailed');
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'code.submit', code: '' });
    expect(check(flow)).toBe('finishing');
    expect(finish.inputs[1]).toEqual({ request: requests.password, captcha: 'tok' });
    finish.last.answer.reject(new Error('offline'));
    await settle();
    expect(check(flow)).toBe('finishFailed');
    expect(log).toHaveBeenCalledWith(new Error('offline'));
  });

  test('register: the finish gets the form; without a robot check to show, Continue retries at once', async () => {
    const { flow, told, checkCode, finish, checked, finished } = await atCodeScreen('registration');
    flow.send({ type: 'code.submit', code: '1234' });
    expect(checkCode.inputs[0]).toMatchObject({ purpose: 'register', phone: '79991234567' });
    await checked();
    expect(finish.inputs).toEqual([{ request: requests.registration, captcha: null }]);
    await finished(answer({ success: false, showCaptcha: false, error: 'Этот телефон уже зарегистрирован' }));
    expect(check(flow)).toBe('finishFailed');
    expect(flow.getSnapshot().context).toMatchObject({ showCaptcha: false, problem: { kind: 'finish failed' } });
    flow.send({ type: 'code.submit', code: '1234' });
    expect(check(flow)).toBe('finishing');
    expect(flow.getSnapshot().context.problem).toBeNull();
    await finished();
    expect(told.at(-1)).toEqual({ type: 'code.confirmed', request: requests.registration });
  });

  test('the default finish fails loudly when the caller provides none', async () => {
    const log = jest.fn();
    const sendCode = fakeRequest<AccountAnswer, SendCodeInput>();
    const checkCode = fakeRequest<AccountAnswer, CheckCodeInput>();
    const { flow } = startFlow(
      codeFlowMachine.provide({ actors: { sendCode: sendCode.logic, checkCode: checkCode.logic }, actions: { 'log error': (_, { error }) => log(error) } }),
      inputs.password,
    );
    flow.send({ type: 'captcha.verified', token: 'tok' });
    flow.send({ type: 'code.request', request: requests.password });
    sendCode.last.answer.resolve(answer());
    await settle();
    flow.send({ type: 'code.submit', code: '1234' });
    checkCode.last.answer.resolve(answer());
    await settle();
    expect(log).toHaveBeenCalledWith(new Error('finish is not provided'));
    expect(check(flow)).toBe('finishFailed');
  });
});
