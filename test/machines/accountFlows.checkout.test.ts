import { createActor } from 'xstate';
import { checkoutMachine } from '../../src/machines/checkout';
import { codeCheckMachine } from '../../src/machines/codeCheck';
import { forgotPasswordMachine } from '../../src/machines/forgotPassword';
import { usePointsMachine } from '../../src/machines/usePoints';
import type { CheckCodeInput, RestorePasswordInput, SendCodeInput } from '../../src/machines/accountFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import { answer, fakeCall, pointsBill, regBill, settle } from '../fixtures/accountFlows';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** The checkout runs the account flows as its children: these walk the hand-overs between them. */
function checkoutWith(bill = pointsBill()) {
  const sendCode = fakeCall<AccountAnswer, SendCodeInput>();
  const checkCode = fakeCall<AccountAnswer, CheckCodeInput>();
  const restorePassword = fakeCall<AccountAnswer, RestorePasswordInput>();
  const machine = checkoutMachine.provide({
    actors: {
      usePoints: usePointsMachine.provide({ actors: { sendCode: sendCode.logic } }),
      forgotPassword: forgotPasswordMachine.provide({ actors: { sendCode: sendCode.logic } }),
      codeCheck: codeCheckMachine.provide({ actors: { sendCode: sendCode.logic, checkCode: checkCode.logic, restorePassword: restorePassword.logic } }),
    },
  });
  const actor = createActor(machine, { input: { bill, user: null, isDesktop: true } }).start();
  return { actor, sendCode, checkCode, restorePassword };
}

const stepOf = (actor: ReturnType<typeof checkoutWith>['actor']) => actor.getSnapshot().context.step;

test('points through the SMS code: usePoints → checkSendCode → back on noReg with the points used', async () => {
  const { actor, sendCode, checkCode } = checkoutWith();
  actor.send({ type: 'nav.goTo', step: 'usePoints' });
  expect(stepOf(actor)).toBe('usePoints');
  actor.getSnapshot().children.usePoints!.send({ type: 'points.submit', points: 1000 });
  sendCode.current.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('checkSendCode');
  expect(actor.getSnapshot().context).toMatchObject({ checkType: 'use-points', pointsToUse: 1000, sendSmsPhone: '79990000001' });

  actor.getSnapshot().children.codeCheck!.send({ type: 'code.submit', code: '1234' });
  expect(checkCode.inputs[0]).toMatchObject({ phone: '79990000001', purpose: 'use-points', custNo: 'C-100' });
  checkCode.current.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('noReg');
  expect(actor.getSnapshot().context).toMatchObject({ usedPoints: 1000, phoneChecked: true, history: [] });

  // The phone is checked now: points apply at once.
  actor.send({ type: 'nav.goTo', step: 'usePoints' });
  actor.getSnapshot().children.usePoints!.send({ type: 'points.submit', points: 200 });
  expect(stepOf(actor)).toBe('noReg');
  expect(actor.getSnapshot().context.usedPoints).toBe(200);
  expect(sendCode.inputs).toHaveLength(1);
});

test("forgot password through the code: back on reg with the 'new password sent' notice", async () => {
  const { actor, sendCode, checkCode, restorePassword } = checkoutWith(regBill());
  expect(stepOf(actor)).toBe('reg');
  actor.send({ type: 'nav.goTo', step: 'forgotPassword' });
  const forgot = actor.getSnapshot().children.forgotPassword!;
  forgot.send({ type: 'captcha.verified', token: 'tok' });
  forgot.send({ type: 'forgotPassword.submit', phone: '79990000002' });
  sendCode.current.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('checkSendCode');
  actor.getSnapshot().children.codeCheck!.send({ type: 'code.submit', code: '4321' });
  checkCode.current.resolve(answer());
  await settle();
  expect(restorePassword.inputs).toEqual([{ phone: '79990000002', captcha: null }]);
  restorePassword.current.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('reg');
  expect(actor.getSnapshot().context.notice).toBe('new password sent');
});
