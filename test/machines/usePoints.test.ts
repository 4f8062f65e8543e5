import { clampPoints, usePointsMachine } from '../../src/machines/usePoints';
import type { SendCodeInput } from '../../src/machines/accountFlow';
import type { StepFlowInput } from '../../src/machines/checkout';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import { answer, fakeCall, flowInput, pointsBill, settle, startFlow } from '../fixtures/accountFlows';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function start(input: Partial<StepFlowInput> = {}) {
  const sendCode = fakeCall<AccountAnswer, SendCodeInput>();
  const log = jest.fn();
  const machine = usePointsMachine.provide({ actors: { sendCode: sendCode.logic }, actions: { 'log error': (_, { error }) => log(error) } });
  return { ...startFlow(machine, flowInput(input)), sendCode, log };
}

test('points are clamped between 0 and the maximum, in whole points', () => {
  expect(clampPoints(-5, 3000)).toBe(0);
  expect(clampPoints(1500.7, 3000)).toBe(1500);
  expect(clampPoints(9999, 3000)).toBe(3000);
  expect(clampPoints(10, -1)).toBe(0);
});

test('without a customer number there are no points to use', () => {
  const { flow } = start({ bill: pointsBill({ info: { PaymentPurpose: 'x', CustNo: null, Summ: 100, Email: null } }) });
  expect(flow.getSnapshot().value).toBe('unavailable');
});

test('with no spendable points the screen has none', () => {
  const { flow } = start({ maxPoints: 0 });
  expect(flow.getSnapshot().value).toBe('unavailable');
});

test("an empty field shows 'Заполните поле'", () => {
  const { flow, sendCode } = start();
  flow.send({ type: 'points.submit', points: null });
  expect(flow.getSnapshot().context.error).toBe('Заполните поле');
  flow.send({ type: 'points.submit', points: Number.NaN });
  expect(flow.getSnapshot().value).toBe('editing');
  expect(sendCode.inputs).toEqual([]);
});

test('a checked phone applies the points at once, clamped to the maximum', () => {
  const { flow, told, sendCode } = start({ phoneChecked: true });
  flow.send({ type: 'points.submit', points: 5000 });
  expect(flow.getSnapshot().value).toBe('applied');
  expect(told).toEqual([{ type: 'points.apply', points: 3000 }]);
  expect(sendCode.inputs).toEqual([]);
});

test('otherwise a use-points code goes to the customer phone and the checkout hears code.required', async () => {
  const { flow, told, sendCode } = start();
  flow.send({ type: 'points.submit', points: 1000 });
  expect(flow.getSnapshot().value).toBe('sendingCode');
  expect(flow.getSnapshot().hasTag('busy')).toBe(true);
  expect(flow.getSnapshot().context.error).toBeNull();
  expect(sendCode.inputs).toEqual([{ phone: '79990000001', purpose: 'use-points', objectOID: 'bill-1', custNo: 'C-100', usePoints: true, captcha: null }]);
  sendCode.current.resolve(answer());
  await settle();
  expect(flow.getSnapshot().value).toBe('codeSent');
  expect(told).toEqual([{ type: 'code.required', checkType: 'use-points', phone: '79990000001', pointsToUse: 1000 }]);
});

test('a send that asks for the captcha shows it; Continue waits for it, then the token goes along', async () => {
  const { flow, told, sendCode, log } = start();
  flow.send({ type: 'points.submit', points: 1000 });
  sendCode.current.resolve(answer({ success: false, showCaptcha: true, error: 'Подтвердите, что вы не робот' }));
  await settle();
  expect(flow.getSnapshot().value).toBe('editing');
  expect(flow.getSnapshot().context.showCaptcha).toBe(true);
  expect(log).toHaveBeenCalledWith('Подтвердите, что вы не робот');

  flow.send({ type: 'points.submit', points: 1000 });
  expect(flow.getSnapshot().value).toBe('editing');
  expect(sendCode.inputs).toHaveLength(1);

  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'points.submit', points: 800 });
  expect(sendCode.inputs[1]?.captcha).toBe('tok');
  sendCode.current.resolve(answer());
  await settle();
  expect(told).toEqual([{ type: 'code.required', checkType: 'use-points', phone: '79990000001', pointsToUse: 800 }]);
});

test('a failed call is logged and the form stays', async () => {
  const { flow, told, sendCode, log } = start();
  flow.send({ type: 'captcha.verified', token: 'tok' });
  flow.send({ type: 'captcha.expired' });
  flow.send({ type: 'points.submit', points: 10 });
  sendCode.current.reject(new Error('offline'));
  await settle();
  expect(flow.getSnapshot().value).toBe('editing');
  expect(log).toHaveBeenCalledWith(new Error('offline'));
  expect(told).toEqual([]);
});
