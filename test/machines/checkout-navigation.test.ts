import { createActor, fromPromise, setup, type AnyActorRef } from 'xstate';
import { appMachine } from '../../src/machines/app';
import { checkoutMachine, openedByPayer, steps, type CheckoutInput, type RouteMeta, type Step } from '../../src/machines/checkout';
import type { CodeRequest } from '../../src/machines/codeFlow';
import type { Bill, LoyaltyUser, PaymentUrlResponse } from '../../src/services/types';
import { aBill, aUser } from '../fixtures/billBuilder';
import { codeLoaded, inertCheckoutChildren } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { deferred, fakeCallback, fakeRequest, flush } from '../fixtures/fakes';
import { paymentMachine } from '../../src/machines/payment';

/** The checkout with every child faked: step flows and the other children are inert callbacks the test drives. */
function provided() {
  const { signIn, freeCall, pointsCode, passwordCode, registrationCode, checkEmail, paymentStatus, actors } = inertCheckoutChildren();
  const flows = { signIn, freeCall, pointsCode, passwordCode, registrationCode };
  const logic = checkoutMachine.provide({ actors });
  return { logic, flows, checkEmail, paymentStatus };
}

/** The checkout started, once the code of what it shows is here; `send` waits so too (a chunk comes a microtask later). */
async function start(input: Partial<CheckoutInput> = {}) {
  const fakes = provided();
  const actor = createActor(fakes.logic, { input: { bill: aBill(), user: null, isDesktop: true, ...input } }).start();
  const send = async (event: Parameters<typeof actor.send>[0]) => {
    actor.send(event);
    await codeLoaded(actor);
  };
  await codeLoaded(actor);
  return { ...fakes, actor, send };
}

const routeOf = (snapshot: { getMeta(): Record<string, unknown> }) =>
  (Object.values(snapshot.getMeta()) as Partial<RouteMeta>[]).find((meta) => meta.route)?.route ?? null;

/** What the code flows tell the checkout once the payer's code was right. */
const confirmed = (request: CodeRequest) => ({ type: 'code.confirmed' as const, request });
const form = { surname: 'И', name: 'И', patronymic: 'И', phone: '79990000003', privacy: true };

const accountBill = aBill({ objectOID: 'demo-reg', noReg: false });
const emailBill = aBill({ info: { Email: 'bill@example.ru' } });

describe('main route', () => {
  test('is guest when the bill says noReg, with no history', async () => {
    const { actor } = await start();
    expect(actor.getSnapshot().value).toEqual({ guest: 'editing' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'guest', history: [] });
    expect(routeOf(actor.getSnapshot())).toEqual({ step: 'guest', path: '/noReg' });
  });

  test('is account otherwise: the sign-in form for a payer not signed in', async () => {
    const { actor, flows } = await start({ bill: accountBill });
    expect(actor.getSnapshot().value).toEqual({ account: { signInForm: 'shown' } });
    expect(routeOf(actor.getSnapshot())).toEqual({ step: 'account', path: '/reg' });
    expect(flows.signIn.runs).toHaveLength(1);
  });

  test('is account with the signed-in screen when a user is there', async () => {
    const { actor, flows } = await start({ bill: accountBill, user: aUser() });
    expect(actor.getSnapshot().value).toEqual({ account: { signedIn: 'editing' } });
    expect(flows.signIn.runs).toHaveLength(0);
  });
});

describe('every step is a state with its route', () => {
  const expected: Record<Step, string> = {
    account: '/reg',
    guest: '/noReg',
    usePoints: '/usePoints',
    checkSendCode: '/checkSendCode',
    checkByPhone: '/checkByPhone',
    choosePaymentType: '/choosePaymentType',
    sbp: '/sbp',
    result: '/result',
    forgotPassword: '/forgot-password',
    register: '/register',
  };

  test.each(openedByPayer.map((step) => [step, expected[step]] as const))('the payer opens %s → %s', async (step, path) => {
    const { actor, send } = await start({ user: aUser() });
    await send({ type: 'nav.goTo', step });
    const snapshot = actor.getSnapshot();
    expect(snapshot.context.step).toBe(step);
    expect(routeOf(snapshot)).toEqual({ step, path });
    expect(snapshot.context.history).toEqual(['guest']);
  });

  test('the flow itself reaches checkSendCode (a code was sent) and choosePaymentType (Continue with a known e-mail)', async () => {
    const { actor, send } = await start({ bill: emailBill });
    await send({ type: 'checkout.continue' });
    expect(routeOf(actor.getSnapshot())).toEqual({ step: 'choosePaymentType', path: '/choosePaymentType' });
    await send({ type: 'nav.back' });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000009' } });
    expect(routeOf(actor.getSnapshot())).toEqual({ step: 'checkSendCode', path: '/checkSendCode' });
    expect(actor.getSnapshot().context.history).toEqual(['guest']);
  });

  test('steps the payer does not open by a link cannot be reached by nav.goTo', async () => {
    const { actor, send } = await start();
    for (const step of (Object.keys(steps) as Step[]).filter((s) => !(openedByPayer as readonly Step[]).includes(s))) {
      await send({ type: 'nav.goTo', step } as never);
      expect(actor.getSnapshot().context).toMatchObject({ step: 'guest', history: [] });
    }
  });

  test('the routes are exactly the declared paths, each once', async () => {
    const paths = Object.values(checkoutMachine.root.states)
      .map((node) => (node.meta as Partial<RouteMeta> | undefined)?.route?.path)
      .filter(Boolean)
      .sort();
    expect(paths).toEqual(['/checkByPhone', '/checkSendCode', '/choosePaymentType', '/forgot-password', '/noReg', '/reg', '/register', '/result', '/sbp', '/usePoints']);
  });

  test('each step that asks for a code starts its code flow; the free-call step gets the phone', async () => {
    const { flows, send } = await start({ bill: aBill({ objectOID: 'bill-9', user: { Phone: '79990000001' }, pointsEnabled: true, usefulPoints: 3000, info: { Summ: 8000, CustNo: 'C-9' } }) });
    await send({ type: 'nav.goTo', step: 'usePoints' });
    expect(flows.pointsCode.last.input).toEqual({ purpose: 'use-points', captcha: 'when asked', objectOID: 'bill-9', custNo: 'C-9', draft: null });
    await send({ type: 'nav.back' });
    // The main route stops a code flow that has nothing more to do.
    expect(flows.pointsCode.last.stopped).toBe(true);
    await send({ type: 'nav.goTo', step: 'forgotPassword' });
    expect(flows.passwordCode.last.input).toEqual({ purpose: 'forgot-password', captcha: 'always', objectOID: 'bill-9', custNo: null, draft: null });
    await send({ type: 'nav.back' });
    await send({ type: 'nav.goTo', step: 'register' });
    expect(flows.registrationCode.last.input).toEqual({ purpose: 'register', captcha: 'always', objectOID: 'bill-9', custNo: null, draft: null });
    // The code was sent: the code screen shows the same flow, which outlives its step.
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000003' } });
    expect(flows.registrationCode.runs).toHaveLength(1);
    expect(flows.registrationCode.last.stopped).toBe(false);
    await send({ type: 'nav.goTo', step: 'checkByPhone' });
    expect(flows.freeCall.last.input).toEqual({ phone: '79990000003' });
    expect(flows.registrationCode.last.stopped).toBe(false);
  });

  test('going back to a step that asks for a code starts a fresh flow', async () => {
    const { flows, send } = await start();
    await send({ type: 'nav.goTo', step: 'forgotPassword' });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000002' } });
    await send({ type: 'nav.back' });
    expect(flows.passwordCode.runs).toHaveLength(2);
    expect(flows.passwordCode.runs[0]!.stopped).toBe(true);
    expect(flows.passwordCode.last.stopped).toBe(false);
  });

  test('the points screen has nothing to offer without a customer number or spendable points', async () => {
    for (const bill of [aBill({ pointsEnabled: true, usefulPoints: 3000 }), aBill({ pointsEnabled: true, usefulPoints: 0.5, info: { CustNo: 'C-1' } })]) {
      const { actor, flows, send } = await start({ bill });
      await send({ type: 'nav.goTo', step: 'usePoints' });
      expect(actor.getSnapshot().value).toEqual({ usePoints: 'unavailable' });
      expect(flows.pointsCode.runs).toHaveLength(0);
    }
  });

  test('the points asked for are clamped to the maximum and go to the code flow with the bill phone', async () => {
    const { actor, flows, send } = await start({ bill: aBill({ user: { Phone: '79990000001' }, pointsEnabled: true, usefulPoints: 3000, info: { Summ: 8000, CustNo: 'C-1' } }) });
    await send({ type: 'nav.goTo', step: 'usePoints' });
    await send({ type: 'points.use', points: 5000.7 });
    expect(flows.pointsCode.last.received).toEqual([{ type: 'code.request', request: { purpose: 'use-points', phone: '79990000001', points: 3000 } }]);
    expect(actor.getSnapshot().context).toMatchObject({ step: 'usePoints', pointsToUse: 3000, usedPoints: 0 });
  });
});

describe('history', () => {
  test('goTo pushes the step left, back pops it and returns, and the error is cleared on the way', async () => {
    const { actor, send } = await start({ bill: emailBill });
    await send({ type: 'nav.goTo', step: 'usePoints' });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000001' } });
    expect(actor.getSnapshot().context.history).toEqual(['guest', 'usePoints']);

    await send({ type: 'nav.back' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'usePoints', history: ['guest'] });
    await send({ type: 'nav.back' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'guest', history: [] });
    expect(actor.getSnapshot().value).toEqual({ guest: 'editing' });
  });

  test('back with an empty history does nothing', async () => {
    const { actor, send } = await start();
    const before = actor.getSnapshot();
    await send({ type: 'nav.back' });
    expect(actor.getSnapshot().value).toEqual(before.value);
    expect(actor.getSnapshot().context.history).toEqual([]);
  });

  test.each(['usePoints', 'forgotPassword', 'register'] as const)('back from the code step returns to %s', async (step) => {
    const { actor, send } = await start({ user: aUser() });
    await send({ type: 'nav.goTo', step });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000001' } });
    await send({ type: 'nav.back' });
    expect(actor.getSnapshot().context.step).toBe(step);
    expect(actor.getSnapshot().context.history).toEqual(['guest']);
  });

  test('back from the free-call step returns to the code step', async () => {
    const { actor, send } = await start();
    await send({ type: 'nav.goTo', step: 'forgotPassword' });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000001' } });
    await send({ type: 'nav.goTo', step: 'checkByPhone' });
    await send({ type: 'nav.back' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'checkSendCode', history: ['guest', 'forgotPassword'] });
  });

  test('a flow ending (points applied, code confirmed, free call over) lands on the main route with history cleared', async () => {
    const { actor, send } = await start({ bill: aBill({ pointsEnabled: true, usefulPoints: 3000, info: { CustNo: 'C-1' } }) });
    await send({ type: 'nav.goTo', step: 'usePoints' });
    await send({ type: 'points.use', points: 500 });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000001' } });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'checkSendCode', history: ['guest', 'usePoints'], sendSmsPhone: '79990000001', pointsToUse: 500 });
    await send(confirmed({ purpose: 'use-points', phone: '79990000001', points: 500 }));
    expect(actor.getSnapshot().context).toMatchObject({ step: 'guest', history: [], usedPoints: 500, phoneChecked: true });

    // The phone is checked now: points apply at once, clamped to the maximum.
    await send({ type: 'nav.goTo', step: 'usePoints' });
    await send({ type: 'points.use', points: 700 });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'guest', history: [], usedPoints: 700 });
    await send({ type: 'nav.goTo', step: 'usePoints' });
    await send({ type: 'points.use', points: 9000 });
    expect(actor.getSnapshot().context.usedPoints).toBe(3000);

    await send({ type: 'nav.goTo', step: 'checkByPhone' });
    await send({ type: 'freeCall.ended' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'guest', history: [] });
  });

  test('a confirmed forgot-password or register code lands on the sign-in form with its notice', async () => {
    const { actor, send } = await start({ bill: accountBill });
    await send({ type: 'nav.goTo', step: 'forgotPassword' });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000002' } });
    await send(confirmed({ purpose: 'forgot-password', phone: '79990000002' }));
    expect(actor.getSnapshot().value).toEqual({ account: { signInForm: 'shown' } });
    // The sign-in form gets the phone the new password went to: only the password is left to type.
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'new password sent', history: [], typed: { signInPhone: '79990000002' } });

    await send({ type: 'nav.goTo', step: 'register' });
    await send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000003' } });
    await send(confirmed({ purpose: 'register', phone: '79990000003', form }));
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'registration success', step: 'account', typed: { signInPhone: '79990000003' } });
  });
});

describe('Continue with an e-mail (account and guest)', () => {
  test('with a known e-mail goes straight to choosePaymentType, the first type preselected', async () => {
    const { actor, send, checkEmail } = await start({ bill: emailBill });
    await send({ type: 'checkout.continue' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'choosePaymentType', history: ['guest'], selectedTypeOid: 'type-card' });
    expect(checkEmail.calls).toHaveLength(0);
  });

  test('with no e-mail anywhere stays put', async () => {
    const { actor, send } = await start();
    await send({ type: 'checkout.continue' });
    expect(actor.getSnapshot().value).toEqual({ guest: 'editing' });
  });

  test('a typed e-mail is checked by the server (busy meanwhile); accepted, it is used and the step moves on', async () => {
    const { actor, send, checkEmail } = await start();
    await send({ type: 'checkout.continue', email: 'typed@example.ru' });
    expect(actor.getSnapshot().value).toEqual({ guest: 'checkingEmail' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(checkEmail.last.input).toEqual({ email: 'typed@example.ru' });
    // A second press while checking sends nothing more.
    await send({ type: 'checkout.continue', email: 'typed@example.ru' });
    expect(checkEmail.calls).toHaveLength(1);

    checkEmail.last.answer.resolve('typed@example.ru');
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ step: 'choosePaymentType', anotherEmail: 'typed@example.ru', emailError: false, history: ['guest'] });
  });

  test('a refused e-mail empties the field and marks the error, even over a bill e-mail; a later good one clears it', async () => {
    const { actor, send, checkEmail } = await start({ bill: emailBill });
    await send({ type: 'checkout.continue', email: 'bad@example' });
    checkEmail.last.answer.reject(new Error('Неверный email'));
    await flush();
    expect(actor.getSnapshot().value).toEqual({ guest: 'editing' });
    expect(actor.getSnapshot().context).toMatchObject({ emailError: true, anotherEmail: null, history: [] });
    // The e-mail used is now empty, so Continue without a new one goes nowhere.
    await send({ type: 'checkout.continue' });
    expect(actor.getSnapshot().value).toEqual({ guest: 'editing' });

    await send({ type: 'checkout.continue', email: 'good@example.ru' });
    checkEmail.last.answer.resolve('good@example.ru');
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ step: 'choosePaymentType', emailError: false, anotherEmail: 'good@example.ru' });
  });

  test('points that cover the bill go on with no type to choose; more cannot be applied, so the price never drops below zero', async () => {
    const { actor, send, checkEmail } = await start({ bill: aBill({ info: { Summ: 100, Email: 'bill@example.ru', CustNo: 'C-1' }, pointsEnabled: true, usefulPoints: 500, cardTypes: [] }) });
    await send(confirmed({ purpose: 'use-points', phone: '79990000001', points: 50 }));
    await send({ type: 'nav.goTo', step: 'usePoints' });
    await send({ type: 'points.use', points: 150 });
    expect(actor.getSnapshot().context.usedPoints).toBe(100);
    await send({ type: 'checkout.continue' });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'choosePaymentType', selectedTypeOid: null, problem: null });
    expect(checkEmail.calls).toHaveLength(0);
  });

  test('the signed-in account screen has the same Continue', async () => {
    const { actor, send, checkEmail } = await start({ bill: accountBill, user: aUser({ email: null }) });
    await send({ type: 'checkout.continue', email: 'me@example.ru' });
    expect(actor.getSnapshot().value).toEqual({ account: { signedIn: 'checkingEmail' } });
    checkEmail.last.answer.reject(new Error('no'));
    await flush();
    expect(actor.getSnapshot().value).toEqual({ account: { signedIn: 'editing' } });
    expect(actor.getSnapshot().context.emailError).toBe(true);
    await send({ type: 'checkout.continue', email: 'me@example.ru' });
    checkEmail.last.answer.resolve('me@example.ru');
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ step: 'choosePaymentType', history: ['account'] });
  });
});

describe('session and user', () => {
  test('session.updated replaces the bill and the user; on account it decides between the sign-in form and the signed-in screen', async () => {
    const { actor, send } = await start({ bill: accountBill });
    const user = aUser();
    const newer = aBill({ objectOID: 'demo-reg', noReg: false, usefulPoints: 5 });
    await send({ type: 'session.updated', bill: newer, user });
    expect(actor.getSnapshot().value).toEqual({ account: { signedIn: 'editing' } });
    expect(actor.getSnapshot().context).toMatchObject({ bill: newer, user });
    await send({ type: 'session.updated', bill: newer, user: null });
    expect(actor.getSnapshot().value).toEqual({ account: { signInForm: 'shown' } });
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  test('session.updated elsewhere only updates the data', async () => {
    const { actor, send } = await start();
    await send({ type: 'nav.goTo', step: 'usePoints' });
    const user = aUser();
    await send({ type: 'session.updated', bill: aBill({ usefulPoints: 9 }), user });
    expect(actor.getSnapshot().context).toMatchObject({ step: 'usePoints', user, history: ['guest'] });
    expect(actor.getSnapshot().context.bill.usefulPoints).toBe(9);
  });

  test('user.signedIn and user.change are forwarded to the parent', async () => {
    const received: string[] = [];
    const { logic } = provided();
    const parent = setup({ actors: { checkout: logic } }).createMachine({
      invoke: { id: 'checkout', src: 'checkout', input: { bill: accountBill, user: null, isDesktop: false } },
      on: {
        'user.signedIn': { actions: () => received.push('user.signedIn') },
        'user.change': { actions: () => received.push('user.change') },
      },
    });
    const actor = createActor(parent).start();
    const checkout = actor.getSnapshot().children.checkout as AnyActorRef;
    checkout.send({ type: 'user.signedIn' });
    checkout.send({ type: 'user.change' });
    expect(received).toEqual(['user.signedIn', 'user.change']);
  });
});

describe('inside the app', () => {
  function startApp() {
    const fakes = provided();
    const loadUser = fakeRequest<LoyaltyUser | null, void>();
    const loadBill = fakeRequest<Bill, { billLink: string }>();
    const logout = fakeRequest<void, void>();
    const tracked: unknown[] = [];
    const app = createActor(
      appMachine.provide({
        actors: { checkout: fakes.logic, loadUser: loadUser.logic, loadBill: loadBill.logic, logout: logout.logic },
        actions: { 'show data error title': () => undefined, 'log error': () => undefined, 'track sign-in': (_, { user }) => tracked.push(user) },
      }),
      { input: { billLink: 'demo-reg', isDesktop: false } },
    ).start();
    const checkout = () => app.getSnapshot().children.checkout as ReturnType<typeof createActor<typeof fakes.logic>>;
    return { ...fakes, app, loadUser, loadBill, logout, tracked, checkout };
  }

  test('a sign-in in the form reloads the user and the bill, and the account step shows the signed-in screen', async () => {
    const { loadUser, loadBill, checkout, flows, tracked } = startApp();
    loadUser.last.answer.resolve(null);
    loadBill.last.answer.resolve(accountBill);
    await flush();
    expect(checkout().getSnapshot().value).toEqual({ account: { signInForm: 'shown' } });

    // The sign-in flow tells the checkout, which tells the app.
    flows.signIn.last.sendBack({ type: 'user.signedIn' });
    const user = aUser();
    loadUser.last.answer.resolve(user);
    loadBill.last.answer.resolve(accountBill);
    await flush();
    expect(tracked).toEqual([user]);
    expect(checkout().getSnapshot().value).toEqual({ account: { signedIn: 'editing' } });
    expect(checkout().getSnapshot().context.user).toEqual(user);
  });

  test("'change user' logs out and the account step shows the sign-in form again", async () => {
    const { loadUser, loadBill, logout, checkout } = startApp();
    loadUser.last.answer.resolve(aUser());
    loadBill.last.answer.resolve(accountBill);
    await flush();
    expect(checkout().getSnapshot().value).toEqual({ account: { signedIn: 'editing' } });
    checkout().send({ type: 'user.change' });
    expect(logout.calls).toHaveLength(1);
    logout.last.answer.resolve();
    await flush();
    expect(checkout().getSnapshot().value).toEqual({ account: { signInForm: 'shown' } });
    expect(checkout().getSnapshot().context.user).toBeNull();
  });
});

describe('fast payment steps', () => {
  /** Reaches sbp as a payer does: Continue with the bill's e-mail, choose fast payment, pay, the bank answers a QR. */
  async function startAtSbp(output: { status: string }) {
    const requestPaymentUrl = fakeRequest<PaymentUrlResponse>();
    const status = deferred<{ status: string }>();
    const { loadCode } = codeFrom({
      paying: {
        offer: fakeCallback().logic,
        paymentStatus: fromPromise(() => status.promise),
        payment: paymentMachine.provide({ actors: { requestPaymentUrl: requestPaymentUrl.logic as never } }),
      } as never,
    });
    const withStatus = provided().logic.provide({ actors: { loadCode } });
    const actor = createActor(withStatus, { input: { bill: emailBill, user: null, isDesktop: true } }).start();
    actor.send({ type: 'checkout.continue' });
    await codeLoaded(actor);
    actor.send({ type: 'payment.select', oid: 'type-sbp' });
    actor.send({ type: 'payment.pay' });
    requestPaymentUrl.last.answer.resolve({ info: { orderId: 'order-1', data: { payload: 'https://bank.example/qr', qrcId: 'qr-1' } } });
    await flush();
    expect(actor.getSnapshot().context.step).toBe('sbp');
    return { actor, settle: () => status.resolve(output) };
  }

  // Issue 17: after a decline 'Назад' did nothing (it went back to the settled QR, which went on to the result again).
  test('declined: the result replaces sbp, and Back goes to choosing another way to pay', async () => {
    const { actor, settle } = await startAtSbp({ status: 'declined' });
    settle();
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ step: 'result', history: ['guest', 'choosePaymentType'] });
    actor.send({ type: 'nav.back' });
    await codeLoaded(actor);
    expect(actor.getSnapshot().context).toMatchObject({ step: 'choosePaymentType', history: ['guest'] });
    expect(actor.getSnapshot().value).toEqual({ choosePaymentType: 'choosing' });
  });

  test('paid: the result is the end, with nothing to go back to', async () => {
    const { actor, settle } = await startAtSbp({ status: 'success' });
    settle();
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ step: 'result', history: [] });
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().context.step).toBe('result');
  });

  test('refunded (paid twice): the result is the end, as for a paid bill', async () => {
    const { actor, settle } = await startAtSbp({ status: 'refunded' });
    settle();
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ step: 'result', history: [] });
  });

  test.each(['order not found', 'document not found'])('sbp stays when polling ends with %s', async (status) => {
    const { actor, settle } = await startAtSbp({ status });
    settle();
    await flush();
    expect(actor.getSnapshot().context.step).toBe('sbp');
  });
});
