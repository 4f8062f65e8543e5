import { createActor } from 'xstate';
import type { CheckCodeInput, SendCodeInput } from '../../src/machines/accountFlow';
import { checkoutMachine } from '../../src/machines/checkout';
import { codeFlowMachine, nothingToFinish } from '../../src/machines/codeFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import type { Bill, SentCode } from '../../src/services/types';
import { answer, pointsBill, regBill, settle, startFlow } from '../fixtures/accountFlows';
import { fakeRequest } from '../fixtures/fakes';

/**
 * A reload on the code screen (issue 17): with this session's code still valid (the server's `sentCode`), the points
 * code's screen comes back with the server's countdown; a restore or registration code's form; else the main route.
 */

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const pointsCode: SentCode = { purpose: 'use-points', phone: '+7 (999) ***-**-01', secondsLeft: 42 };

function reloadedOn(bill: Bill, resumePath: string | null = '/checkSendCode') {
  const sendCode = fakeRequest<AccountAnswer, SendCodeInput>();
  const checkCode = fakeRequest<AccountAnswer, CheckCodeInput>();
  const codeFlow = codeFlowMachine.provide({ actors: { sendCode: sendCode.logic, checkCode: checkCode.logic } });
  const machine = checkoutMachine.provide({
    actors: { pointsCode: codeFlow.provide({ actors: { finish: nothingToFinish } }), passwordCode: codeFlow, registrationCode: codeFlow },
  });
  const actor = createActor(machine, { input: { bill, user: null, isDesktop: true, resumePath } }).start();
  const code = () => actor.getSnapshot().children.code!;
  return { actor, code, sendCode, checkCode };
}

describe('the checkout reloaded on the code screen', () => {
  test('a valid points code: its screen with the server\'s countdown and masked phone; the right code proves the phone, the points are chosen again', async () => {
    const { actor, code, sendCode, checkCode } = reloadedOn(pointsBill({ sentCode: pointsCode }));
    expect(actor.getSnapshot().value).toBe('checkSendCode');
    // The masked phone is for the screen only (CheckSendCode shows the server's): never a phone to send anything to.
    expect(actor.getSnapshot().context).toMatchObject({ step: 'checkSendCode', history: ['noReg', 'usePoints'], sendSmsPhone: '' });
    expect(code().getSnapshot().matches({ codeSent: { resend: 'counting', check: 'entering' } })).toBe(true);
    expect(code().getSnapshot().context.secondsLeft).toBe(42);
    // Nothing is sent again: the code on the phone is the one to type.
    expect(sendCode.calls).toHaveLength(0);
    jest.advanceTimersByTime(2000);
    expect(code().getSnapshot().context.secondsLeft).toBe(40);

    code().send({ type: 'code.submit', code: '1234' });
    // The check goes to the bill's own phone, which the page knows (the masked one is only shown).
    expect(checkCode.last.input).toMatchObject({ phone: '79990000001', purpose: 'use-points', custNo: 'C-100', code: '1234' });
    checkCode.last.answer.resolve(answer());
    await settle();
    expect(actor.getSnapshot().value).toMatchObject({ usePoints: 'choosing' });
    expect(actor.getSnapshot().context).toMatchObject({ phoneChecked: true, usedPoints: 0, history: ['noReg'] });
    // Proven, the points apply at once, with no second code.
    actor.send({ type: 'points.use', points: 1000 });
    expect(actor.getSnapshot().value).toMatchObject({ noReg: 'editing' });
    expect(actor.getSnapshot().context.usedPoints).toBe(1000);
    expect(sendCode.calls).toHaveLength(0);
  });

  test('Back from the resumed screen goes to the points form', () => {
    const { actor } = reloadedOn(pointsBill({ sentCode: pointsCode }));
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().value).toMatchObject({ usePoints: 'choosing' });
  });

  test('a restore or registration code (sent to a phone the page no longer knows): back to its form, Back to the reg step', () => {
    for (const [purpose, step] of [['forgot-password', 'forgotPassword'], ['register', 'register']] as const) {
      const { actor, code } = reloadedOn(regBill({ sentCode: { purpose, phone: '+7 (999) ***-**-02', secondsLeft: 10 } }));
      expect(actor.getSnapshot().context).toMatchObject({ step, history: ['reg'] });
      expect(code().getSnapshot().value).toBe('asking');
    }
  });

  test.each([
    ['no valid code (none, spent or expired)', pointsBill({ sentCode: null }), '/checkSendCode'],
    ['a valid code, reloaded on another step', pointsBill({ sentCode: pointsCode }), '/usePoints'],
    ['a points code on a bill with nothing to spend', pointsBill({ sentCode: pointsCode, usefulPoints: 0 }), '/checkSendCode'],
    ['a restore code on a noReg bill', pointsBill({ sentCode: { ...pointsCode, purpose: 'forgot-password' } }), '/checkSendCode'],
  ])('%s: the main route, history empty', (_, bill, resumePath) => {
    const { actor } = reloadedOn(bill, resumePath);
    expect(actor.getSnapshot().value).toMatchObject({ noReg: 'editing' });
    expect(actor.getSnapshot().context.history).toEqual([]);
  });
});

describe('the send-code flow resumed', () => {
  const resumed = (secondsLeft: number) => {
    const sendCode = fakeRequest<AccountAnswer, SendCodeInput>();
    const machine = codeFlowMachine.provide({ actors: { sendCode: sendCode.logic, checkCode: fakeRequest<AccountAnswer, CheckCodeInput>().logic, finish: nothingToFinish } });
    const run = startFlow(machine, {
      purpose: 'use-points',
      captcha: 'when asked',
      objectOID: 'bill-1',
      custNo: 'C-100',
      resume: { request: { purpose: 'use-points', phone: '79990000001', points: null }, secondsLeft },
    });
    return { ...run, sendCode };
  };

  test('starts on the code screen without telling the checkout a code was sent, and counts down to resend', () => {
    const { flow, told } = resumed(2);
    expect(flow.getSnapshot().matches({ codeSent: { resend: 'counting' } })).toBe(true);
    expect(told).toEqual([]);
    jest.advanceTimersByTime(2000);
    expect(flow.getSnapshot().matches({ codeSent: { resend: 'ready' } })).toBe(true);
  });

  test('a countdown run out during the reload: resend at once, to the same phone', () => {
    const { flow, sendCode } = resumed(0);
    expect(flow.getSnapshot().matches({ codeSent: { resend: 'ready' } })).toBe(true);
    flow.send({ type: 'code.resend' });
    expect(sendCode.last.input).toMatchObject({ phone: '79990000001', purpose: 'use-points', custNo: 'C-100' });
  });
});
