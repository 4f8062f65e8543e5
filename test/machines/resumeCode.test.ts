import { createActor } from 'xstate';
import type { CheckCodeInput, SendCodeInput } from '../../src/machines/accountFlow';
import type { FinishInput } from '../../src/machines/codeFlow';
import { checkoutMachine } from '../../src/machines/checkout';
import { draftOf } from '../../src/machines/checkoutDraft';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import type { CheckoutDraft } from '../../src/services/checkoutDraft';
import { codeFlowMachine, nothingToFinish } from '../../src/machines/codeFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import type { Bill, CodeRequest, RegisterForm, SentCode } from '../../src/services/types';
import { answer, pointsBill, accountBill, settle, startFlow } from '../fixtures/accountFlows';
import { codeLoaded } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeCallback, fakeRequest } from '../fixtures/fakes';

/**
 * A reload on the code screen: with this session's code still valid (the server's `sentCode`) and this
 * tab's draft of what it was asked for, the code screen comes back with the server's countdown and a right code
 * finishes the flow; a points code's screen comes back without a draft too (the points then unknown). A flow known but
 * not resumable goes to its form, the step before; nothing known, to the main route.
 */

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const pointsCode: SentCode = { purpose: 'use-points', phone: '+7 (999) ***-**-01', secondsLeft: 42 };

const form: RegisterForm = { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79990000002', privacy: true };
const drafts = {
  // The page holds the bill's phone masked, so its draft of a points code does too.
  points: { purpose: 'use-points', phone: '+7 (999) ***-**-01', points: 1000 },
  restore: { purpose: 'forgot-password', phone: '79990000002' },
  registration: { purpose: 'register', phone: '79990000002', form },
} satisfies Record<string, CodeRequest>;
const restoreCode: SentCode = { purpose: 'forgot-password', phone: '+7 (999) ***-**-02', secondsLeft: 30 };
const registrationCode: SentCode = { ...restoreCode, purpose: 'register' };
const noDraft: CheckoutDraft = { email: null, typed: {}, selectedTypeOid: null, agreements: {}, usedPoints: 0, pointsToUse: null, phoneChecked: false, transactionID: null, code: null };

async function reloadedOn(bill: Bill, resumePath: string | null = '/checkSendCode', codeDraft: CodeRequest | null = null) {
  const sendCode = fakeRequest<AccountAnswer, SendCodeInput>();
  const checkCode = fakeRequest<AccountAnswer, CheckCodeInput>();
  const finish = fakeRequest<AccountAnswer, FinishInput>();
  const codeFlow = codeFlowMachine.provide({ actors: { sendCode: sendCode.logic, checkCode: checkCode.logic, finish: finish.logic } });
  const machine = checkoutMachine.provide({
    actors: {
      loadCode: codeFrom({
        accountFlows: { pointsCode: codeFlow.provide({ actors: { finish: nothingToFinish } }), passwordCode: codeFlow, registrationCode: codeFlow, freeCall: fakeCallback().logic as never },
        signInForm: { signIn: fakeCallback().logic as never },
      }).loadCode,
    },
    actions: resumeAfterReload.actions,
    guards: resumeAfterReload.guards,
  });
  const draft = codeDraft ? { ...noDraft, code: codeDraft } : null;
  const actor = createActor(machine, { input: { bill, user: null, isDesktop: true, resumePath, draft } }).start();
  await codeLoaded(actor);
  const code = () => actor.getSnapshot().children.code!;
  /** What this tab's draft keeps of the code step now (the composition root writes it: keepDraft.ts). */
  const drafted = () => draftOf(actor.getSnapshot()).code;
  return { actor, code, sendCode, checkCode, finish, drafted };
}

describe('the checkout reloaded on the code screen', () => {
  test('a valid points code: its screen with the server\'s countdown and masked phone; the right code proves the phone, the points are chosen again', async () => {
    const { actor, code, sendCode, checkCode } = await reloadedOn(pointsBill({ sentCode: pointsCode }));
    expect(actor.getSnapshot().value).toBe('checkSendCode');
    // The masked phone is for the screen only (CheckSendCode shows the server's): never a phone to send anything to.
    expect(actor.getSnapshot().context).toMatchObject({ step: 'checkSendCode', history: ['guest', 'usePoints'], sendSmsPhone: '' });
    expect(code().getSnapshot().matches({ codeSent: { resend: 'counting', check: 'entering' } })).toBe(true);
    expect(code().getSnapshot().context.secondsLeft).toBe(42);
    // Nothing is sent again: the code on the phone is the one to type.
    expect(sendCode.calls).toHaveLength(0);
    jest.advanceTimersByTime(2000);
    expect(code().getSnapshot().context.secondsLeft).toBe(40);

    code().send({ type: 'code.submit', code: '1234' });
    // The check names the bill, whose own phone the server takes: the page has it masked only.
    expect(checkCode.last.input).toMatchObject({ phone: null, objectOID: 'bill-1', purpose: 'use-points', custNo: 'C-100', code: '1234' });
    checkCode.last.answer.resolve(answer());
    await settle();
    expect(actor.getSnapshot().value).toMatchObject({ usePoints: 'choosing' });
    expect(actor.getSnapshot().context).toMatchObject({ phoneChecked: true, usedPoints: 0, history: ['guest'] });
    // Proven, the points apply at once, with no second code.
    actor.send({ type: 'points.use', points: 1000 });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
    expect(actor.getSnapshot().context.usedPoints).toBe(1000);
    expect(sendCode.calls).toHaveLength(0);
  });

  test('Back from the resumed screen goes to the points form', async () => {
    const { actor } = await reloadedOn(pointsBill({ sentCode: pointsCode }));
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().value).toMatchObject({ usePoints: 'choosing' });
  });

  test('a restore or registration code with no draft in this tab (its phone unknown to the page): back to its form, Back to the account step', async () => {
    for (const [purpose, step] of [['forgot-password', 'forgotPassword'], ['register', 'register']] as const) {
      const { actor, code } = await reloadedOn(accountBill({ sentCode: { purpose, phone: '+7 (999) ***-**-02', secondsLeft: 10 } }));
      expect(actor.getSnapshot().context).toMatchObject({ step, history: ['account'] });
      expect(code().getSnapshot().value).toBe('asking');
    }
  });

  test("a valid restore code with this tab's draft: its screen with the server's countdown; the right code resets the password as without the reload", async () => {
    const { actor, code, sendCode, checkCode, finish, drafted } = await reloadedOn(accountBill({ sentCode: restoreCode }), '/checkSendCode', drafts.restore);
    expect(actor.getSnapshot().value).toBe('checkSendCode');
    // The screen shows the server's masked phone (sendSmsPhone stays empty); Back goes to the restore form.
    expect(actor.getSnapshot().context).toMatchObject({ step: 'checkSendCode', history: ['account', 'forgotPassword'], sendSmsPhone: '' });
    expect(code().getSnapshot().context).toMatchObject({ purpose: 'forgot-password', secondsLeft: 30, request: drafts.restore });
    expect(sendCode.calls).toHaveLength(0);

    code().send({ type: 'code.submit', code: '4321' });
    expect(checkCode.last.input).toMatchObject({ phone: '79990000002', purpose: 'forgot-password', code: '4321' });
    checkCode.last.answer.resolve(answer());
    await settle();
    expect(finish.last.input).toEqual({ request: drafts.restore, captcha: null });
    finish.last.answer.resolve(answer());
    await settle();
    expect(actor.getSnapshot().value).toMatchObject({ account: { signInForm: 'shown' } });
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'new password sent', history: [] });
    // The flow ended: its draft is gone.
    expect(drafted()).toBeNull();
  });

  test('a valid registration code with the draft: the right code registers with the form the payer had filled', async () => {
    const { actor, code, checkCode, finish } = await reloadedOn(accountBill({ sentCode: registrationCode }), '/checkSendCode', drafts.registration);
    expect(actor.getSnapshot().context).toMatchObject({ step: 'checkSendCode', history: ['account', 'register'] });
    code().send({ type: 'code.submit', code: '1111' });
    checkCode.last.answer.resolve(answer());
    await settle();
    expect(finish.last.input).toEqual({ request: { purpose: 'register', phone: '79990000002', form }, captcha: null });
    finish.last.answer.resolve(answer());
    await settle();
    expect(actor.getSnapshot().context.notice).toBe('registration success');
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().context.step).toBe('account');
  });

  test('Back from a resumed restore code screen goes to the restore form', async () => {
    const { actor } = await reloadedOn(accountBill({ sentCode: restoreCode }), '/checkSendCode', drafts.restore);
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'forgotPassword', history: ['account'] });
  });

  test('a valid points code with the draft: the points asked for are kept and apply with the right code, no second choice', async () => {
    const { actor, code, checkCode, sendCode } = await reloadedOn(pointsBill({ sentCode: pointsCode }), '/checkSendCode', drafts.points);
    expect(code().getSnapshot().context.request).toEqual(drafts.points);
    // Back to the points form would show them too.
    expect(actor.getSnapshot().context.pointsToUse).toBe(1000);
    code().send({ type: 'code.submit', code: '1234' });
    checkCode.last.answer.resolve(answer());
    await settle();
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
    expect(actor.getSnapshot().context).toMatchObject({ usedPoints: 1000, phoneChecked: true, history: [] });
    expect(sendCode.calls).toHaveLength(0);
  });

  test("a draft whose phone is not the server's code's (another flow's, or another tab's code): the step before", async () => {
    const { actor, code } = await reloadedOn(accountBill({ sentCode: { ...restoreCode, phone: '+7 (999) ***-**-77' } }), '/checkSendCode', drafts.restore);
    expect(actor.getSnapshot().context).toMatchObject({ step: 'forgotPassword', history: ['account'] });
    expect(code().getSnapshot().value).toBe('asking');
  });

  test.each([
    ['points', pointsBill(), drafts.points, 'usePoints', ['guest']],
    ['restore', accountBill(), drafts.restore, 'forgotPassword', ['account']],
    ['registration', accountBill(), drafts.registration, 'register', ['account']],
  ] as const)('the %s code ran out (no valid code) but the draft names the flow: its form, the step before', async (_, bill, draft, step, history) => {
    const { actor, code } = await reloadedOn(bill, '/checkSendCode', draft);
    expect(actor.getSnapshot().context).toMatchObject({ step, history });
    expect(code().getSnapshot().value).toBe('asking');
  });

  test('a restore or registration form after its code ran out starts with what it had; once left for the main route, empty again', async () => {
    for (const draft of [drafts.restore, drafts.registration]) {
      const { actor, code } = await reloadedOn(accountBill(), '/checkSendCode', draft);
      expect(code().getSnapshot().context.draft).toEqual(draft);
      actor.send({ type: 'nav.back' });
      actor.send({ type: 'nav.goTo', step: draft.purpose === 'register' ? 'register' : 'forgotPassword' });
      expect(code().getSnapshot().context.draft).toBeNull();
    }
  });

  test('a new code sent from the resumed form drops the old draft: Back to the form shows it empty', async () => {
    const { actor, code, sendCode } = await reloadedOn(accountBill(), '/checkSendCode', drafts.restore);
    // The restore form always asks for the robot check.
    code().send({ type: 'captcha.verified', token: 'tok' });
    code().send({ type: 'code.request', request: { purpose: 'forgot-password', phone: '79990000005' } });
    sendCode.last.answer.resolve(answer());
    await settle();
    expect(actor.getSnapshot().context.step).toBe('checkSendCode');
    actor.send({ type: 'nav.back' });
    expect(code().getSnapshot().context.draft).toBeNull();
  });

  test('a valid code, reloaded on the points form: the form, as the address bar named it', async () => {
    const { actor } = await reloadedOn(pointsBill({ sentCode: pointsCode }), '/usePoints');
    expect(actor.getSnapshot().value).toMatchObject({ usePoints: 'choosing' });
    expect(actor.getSnapshot().context.history).toEqual(['guest']);
  });

  test('the points form after an expired code shows the points asked for', async () => {
    const { actor } = await reloadedOn(pointsBill(), '/checkSendCode', drafts.points);
    expect(actor.getSnapshot().value).toMatchObject({ usePoints: 'choosing' });
    expect(actor.getSnapshot().context.pointsToUse).toBe(1000);
  });

  test('a resumed restore screen: the free-call line waits for a call from the phone the code went to', async () => {
    const freeCall = fakeRequest<boolean, { phone: string }>();
    const actor = createActor(
      checkoutMachine.provide({
        actors: {
          loadCode: codeFrom({ accountFlows: { pointsCode: codeFlowMachine, passwordCode: codeFlowMachine, registrationCode: codeFlowMachine, freeCall: freeCall.logic as never } }).loadCode,
        },
        actions: resumeAfterReload.actions,
        guards: resumeAfterReload.guards,
      }),
      { input: { bill: accountBill({ sentCode: restoreCode }), user: null, isDesktop: true, resumePath: '/checkSendCode', draft: { ...noDraft, code: drafts.restore } } },
    ).start();
    await codeLoaded(actor);
    actor.send({ type: 'nav.goTo', step: 'checkByPhone' });
    await codeLoaded(actor);
    expect(freeCall.last.input).toEqual({ phone: '79990000002' });
  });

  test('a code sent keeps its request as the draft of this bill; a confirmed code forgets it', async () => {
    const { actor, code, sendCode, checkCode, drafted } = await reloadedOn(pointsBill(), null);
    expect(drafted()).toBeNull();
    actor.send({ type: 'nav.goTo', step: 'usePoints' });
    await codeLoaded(actor);
    actor.send({ type: 'points.use', points: 500 });
    sendCode.last.answer.resolve(answer());
    await settle();
    expect(actor.getSnapshot().context.step).toBe('checkSendCode');
    expect(drafted()).toEqual({ purpose: 'use-points', phone: '+7 (999) ***-**-01', points: 500 });
    code().send({ type: 'code.submit', code: '1234' });
    checkCode.last.answer.resolve(answer());
    await settle();
    expect(drafted()).toBeNull();
  });

  test.each([
    ['no valid code (none, spent or expired)', pointsBill({ sentCode: null }), '/checkSendCode'],
    ['a points code on a bill with nothing to spend', pointsBill({ sentCode: pointsCode, usefulPoints: 0 }), '/checkSendCode'],
    ['a restore code on a guest bill', pointsBill({ sentCode: { ...pointsCode, purpose: 'forgot-password' } }), '/checkSendCode'],
    ["a restore draft on a guest bill (another bill's flow)", pointsBill(), '/checkSendCode', drafts.restore],
    ['a draft, reloaded on another step', pointsBill({ sentCode: pointsCode }), '/noReg', drafts.points],
  ])('%s: the main route, history empty', async (_, bill, resumePath, draft: CodeRequest | null = null) => {
    const { actor } = await reloadedOn(bill, resumePath, draft);
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
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
      resume: { request: { purpose: 'use-points', phone: '+7 (999) ***-**-01', points: null }, secondsLeft },
    });
    return { ...run, sendCode };
  };

  test('starts on the code screen without telling the checkout a code was sent, and counts down to resend', async () => {
    const { flow, told } = resumed(2);
    expect(flow.getSnapshot().matches({ codeSent: { resend: 'counting' } })).toBe(true);
    expect(told).toEqual([]);
    jest.advanceTimersByTime(2000);
    expect(flow.getSnapshot().matches({ codeSent: { resend: 'ready' } })).toBe(true);
  });

  test('a countdown run out during the reload: resend at once, to the same phone', async () => {
    const { flow, sendCode } = resumed(0);
    expect(flow.getSnapshot().matches({ codeSent: { resend: 'ready' } })).toBe(true);
    flow.send({ type: 'code.resend' });
    expect(sendCode.last.input).toMatchObject({ phone: null, objectOID: 'bill-1', purpose: 'use-points', custNo: 'C-100' });
  });
});
