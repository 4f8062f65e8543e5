import { createActor } from 'xstate';
import type { CheckCodeInput, SendCodeInput } from '../../src/machines/accountFlow';
import { checkoutMachine } from '../../src/machines/checkout';
import { codeFlowMachine, nothingToFinish, type FinishInput } from '../../src/machines/codeFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import { answer, pointsBill, accountBill, settle } from '../fixtures/accountFlows';
import { codeLoaded } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeCallback, fakeRequest } from '../fixtures/fakes';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** The checkout runs the send-code flow as its child: these walk the hand-overs between them. */
async function checkoutWith(bill = pointsBill()) {
  const sendCode = fakeRequest<AccountAnswer, SendCodeInput>();
  const checkCode = fakeRequest<AccountAnswer, CheckCodeInput>();
  const restorePassword = fakeRequest<AccountAnswer, FinishInput>();
  const codeFlow = codeFlowMachine.provide({ actors: { sendCode: sendCode.logic, checkCode: checkCode.logic } });
  const { loadCode } = codeFrom({
    accountFlows: {
      pointsCode: codeFlow.provide({ actors: { finish: nothingToFinish } }),
      passwordCode: codeFlow.provide({ actors: { finish: restorePassword.logic } }),
      registrationCode: codeFlow,
      freeCall: fakeCallback().logic as never,
    },
    signInForm: { signIn: fakeCallback().logic as never },
  });
  const machine = checkoutMachine.provide({ actors: { loadCode } });
  const actor = createActor(machine, { input: { bill, user: null, isDesktop: true } }).start();
  await codeLoaded(actor);
  const code = () => actor.getSnapshot().children.code!;
  return { actor, code, sendCode, checkCode, restorePassword };
}

const stepOf = (actor: Awaited<ReturnType<typeof checkoutWith>>['actor']) => actor.getSnapshot().context.step;

test('points through the SMS code: usePoints → checkSendCode → back on guest with the points used', async () => {
  const { actor, code, sendCode, checkCode } = await checkoutWith();
  actor.send({ type: 'nav.goTo', step: 'usePoints' });
  await codeLoaded(actor);
  expect(stepOf(actor)).toBe('usePoints');
  actor.send({ type: 'points.use', points: 1000 });
  expect(sendCode.last.input).toMatchObject({ phone: null, objectOID: 'bill-1', purpose: 'use-points', custNo: 'C-100' });
  sendCode.last.answer.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('checkSendCode');
  expect(actor.getSnapshot().context).toMatchObject({ pointsToUse: 1000, sendSmsPhone: '+7 (999) ***-**-01' });

  code().send({ type: 'code.submit', code: '1234' });
  expect(checkCode.last.input).toMatchObject({ phone: null, objectOID: 'bill-1', purpose: 'use-points', custNo: 'C-100' });
  checkCode.last.answer.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('guest');
  expect(actor.getSnapshot().context).toMatchObject({ usedPoints: 1000, phoneChecked: true, history: [] });
  expect(actor.getSnapshot().children.code).toBeUndefined();

  // The phone is checked now: points apply at once.
  actor.send({ type: 'nav.goTo', step: 'usePoints' });
  await codeLoaded(actor);
  actor.send({ type: 'points.use', points: 200 });
  expect(stepOf(actor)).toBe('guest');
  expect(actor.getSnapshot().context.usedPoints).toBe(200);
  expect(sendCode.calls).toHaveLength(1);
});

test("forgot password through the code: back on account with the 'new password sent' notice", async () => {
  const { actor, code, sendCode, checkCode, restorePassword } = await checkoutWith(accountBill());
  expect(stepOf(actor)).toBe('account');
  actor.send({ type: 'nav.goTo', step: 'forgotPassword' });
  await codeLoaded(actor);
  code().send({ type: 'captcha.verified', token: 'tok' });
  code().send({ type: 'code.request', request: { purpose: 'forgot-password', phone: '79990000002' } });
  sendCode.last.answer.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('checkSendCode');
  // The free-call screen and back: the same flow, its code screen where it was.
  actor.send({ type: 'nav.goTo', step: 'checkByPhone' });
  await codeLoaded(actor);
  actor.send({ type: 'nav.back' });
  await codeLoaded(actor);
  expect(code().getSnapshot().hasTag('code sent')).toBe(true);
  code().send({ type: 'code.submit', code: '4321' });
  checkCode.last.answer.resolve(answer());
  await settle();
  expect(restorePassword.inputs).toEqual([{ request: { purpose: 'forgot-password', phone: '79990000002' }, captcha: null }]);
  restorePassword.last.answer.resolve(answer());
  await settle();
  expect(stepOf(actor)).toBe('account');
  expect(actor.getSnapshot().context.notice).toBe('new password sent');
});
