import { createActor, waitFor } from 'xstate';
import { checkoutMachine, type CheckoutActor, type CheckoutInput } from '../../src/machines/checkout';
import { draftOf } from '../../src/machines/checkoutDraft';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import { steps, type Step } from '../../src/machines/steps';
import type { CheckoutDraft } from '../../src/services/checkoutDraft';
import { maskPhone } from '../../src/services/rules/phone';
import type { Bill, CodeRequest } from '../../src/services/types';
import { pointsBill, accountBill } from '../fixtures/accountFlows';
import { codeLoaded } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeCallback, fakeRequest, flush } from '../fixtures/fakes';

/*
 * The draft both ways, over every step of the chart: the payer walks to a step making choices, the tab keeps
 * `draftOf(snapshot)`, the page reloads on that step's path with that draft (and the server's data as it then is), and
 * the checkout resumed shows the same step with the same choices. A step added to the chart without a walk here fails
 * the last test.
 */

/** The checkout with every child inert but the payment and its polling, which the walk answers. */
function checkout(input: Partial<CheckoutInput> & { bill: Bill }) {
  const payment = fakeRequest<unknown>();
  const paymentStatus = fakeRequest<{ status: string }>();
  const { loadCode } = codeFrom({
    paying: { offer: fakeCallback().logic, payment: payment.logic, paymentStatus: paymentStatus.logic } as never,
    accountFlows: { pointsCode: fakeCallback().logic, passwordCode: fakeCallback().logic, registrationCode: fakeCallback().logic, freeCall: fakeCallback().logic } as never,
    signInForm: { signIn: fakeCallback().logic } as never,
  });
  const logic = checkoutMachine.provide({ actors: { checkEmail: fakeRequest<string, { email: string }>().logic, loadCode }, actions: resumeAfterReload.actions, guards: resumeAfterReload.guards });
  const actor = createActor(logic, { input: { user: null, isDesktop: true, ...input } }).start();
  const send = async (event: Parameters<CheckoutActor['send']>[0]) => {
    actor.send(event);
    await codeLoaded(actor);
  };
  return { actor, send, payment, paymentStatus };
}

/** Where a walk ended: the checkout there, and the bill as the server gives it on the reload (a code sent, a QR open). */
interface Walked {
  actor: CheckoutActor;
  billOnReload: Bill;
}

const restoreRequest: CodeRequest = { purpose: 'forgot-password', phone: '79990000002' };
const registerForm: CodeRequest = { purpose: 'register', phone: '7999000', form: { surname: 'Петров', name: 'Пётр', patronymic: '', phone: '7999000', privacy: false } };
const offersBill = () => pointsBill({ info: { ...pointsBill().info, Email: 'bill@example.com' }, cardTypes: pointsBill().cardTypes.map((type) => ({ ...type, IsShowAggregatorOffer: true })) });

/** The way to pay chosen with its offer ticked, points used, after the e-mail typed on the first step. */
async function atChoosing() {
  const bill = offersBill();
  const walk = checkout({ bill });
  await codeLoaded(walk.actor);
  await walk.send({ type: 'payer.typed', typed: { email: 'typed@exa' } });
  await walk.send({ type: 'checkout.continue' });
  await walk.send({ type: 'payment.select', oid: 'sbp' });
  await walk.send({ type: 'agreement.set', kind: 'aggregator', checked: true });
  return { ...walk, bill };
}

/** At the QR: Pay by the fast payment answered with its QR. */
async function atQr() {
  const walk = await atChoosing();
  await walk.send({ type: 'payment.pay' });
  walk.payment.last.answer.resolve({ outcome: 'fast payment', formUrl: 'https://bank/qr-1', transactionID: 'qrc-1', qrSrc: 'data:image/png;base64,iVBORw0KGgo=' });
  await waitFor(walk.actor, (state) => state.matches('sbp'));
  return walk;
}

/** At the restore code screen: the restore form typed and its code sent. */
async function atRestoreCode() {
  const walk = checkout({ bill: accountBill() });
  await codeLoaded(walk.actor);
  await walk.send({ type: 'nav.goTo', step: 'forgotPassword' });
  await walk.send({ type: 'payer.typed', typed: { form: restoreRequest } });
  await walk.send({ type: 'code.sent', request: restoreRequest });
  return walk;
}
const restoreCodeSent = () => accountBill({ sentCode: { purpose: 'forgot-password', phone: maskPhone(restoreRequest.phone), secondsLeft: 30 } });

const walks: Record<Step, () => Promise<Walked>> = {
  async guest() {
    const { actor, send } = checkout({ bill: pointsBill() });
    await codeLoaded(actor);
    await send({ type: 'payer.typed', typed: { email: 'payer@exa' } });
    return { actor, billOnReload: pointsBill() };
  },
  async account() {
    const { actor, send } = checkout({ bill: accountBill() });
    await codeLoaded(actor);
    await send({ type: 'payer.typed', typed: { signInPhone: '7999' } });
    return { actor, billOnReload: accountBill() };
  },
  async usePoints() {
    const { actor, send } = checkout({ bill: pointsBill() });
    await codeLoaded(actor);
    await send({ type: 'nav.goTo', step: 'usePoints' });
    await send({ type: 'points.use', points: 1200 });
    return { actor, billOnReload: pointsBill() };
  },
  async forgotPassword() {
    const { actor, send } = checkout({ bill: accountBill() });
    await codeLoaded(actor);
    await send({ type: 'nav.goTo', step: 'forgotPassword' });
    await send({ type: 'payer.typed', typed: { form: restoreRequest } });
    return { actor, billOnReload: accountBill() };
  },
  async register() {
    const { actor, send } = checkout({ bill: accountBill() });
    await codeLoaded(actor);
    await send({ type: 'nav.goTo', step: 'register' });
    await send({ type: 'payer.typed', typed: { form: registerForm } });
    return { actor, billOnReload: accountBill() };
  },
  async checkSendCode() {
    const { actor } = await atRestoreCode();
    return { actor, billOnReload: restoreCodeSent() };
  },
  async checkByPhone() {
    const { actor, send } = await atRestoreCode();
    await send({ type: 'nav.goTo', step: 'checkByPhone' });
    return { actor, billOnReload: restoreCodeSent() };
  },
  async choosePaymentType() {
    const { actor, bill } = await atChoosing();
    return { actor, billOnReload: bill };
  },
  async sbp() {
    const { actor, bill } = await atQr();
    const open = { orderId: 'order-1', cardTypeOID: 'sbp', code: 'SBP' as const, status: 'created' as const, pointsUsed: 0, sbp: { payload: 'https://bank/qr-1', qrcId: 'qrc-1', image: 'iVBORw0KGgo=' } };
    return { actor, billOnReload: { ...bill, openAttempt: open } };
  },
  async result() {
    const { actor, bill, paymentStatus } = await atQr();
    paymentStatus.last.answer.resolve({ status: 'declined' });
    await waitFor(actor, (state) => state.matches('result'));
    return { actor, billOnReload: bill };
  },
};

/** A reload on `step`'s path with the tab's draft: the checkout resumed, once the code of its step is here. */
async function reloadedOn(step: Step, bill: Bill, draft: CheckoutDraft) {
  const { actor } = checkout({ bill, resumePath: steps[step].path, draft: JSON.parse(JSON.stringify(draft)) as CheckoutDraft });
  await codeLoaded(actor);
  await flush();
  return actor;
}

test.each(Object.keys(walks) as Step[])('%s: snapshot → draft → reload gives the same step with the same choices', async (step) => {
  const { actor, billOnReload } = await walks[step]();
  expect(actor.getSnapshot().context.step).toBe(step);
  const draft = draftOf(actor.getSnapshot());
  actor.stop();
  const resumed = await reloadedOn(step, billOnReload, draft);
  expect(resumed.getSnapshot().context.step).toBe(step);
  expect(draftOf(resumed.getSnapshot())).toEqual(draft);
  resumed.stop();
});

test("a bill in parts: the part typed into 'Сумма платежа' is kept in the draft and comes back on a reload", async () => {
  const bill = pointsBill({ info: { ...pointsBill().info, Email: 'bill@example.com' }, parts: { minimum: 1000, paid: 2000, remaining: 6000, pointsSpent: false } });
  const walk = checkout({ bill });
  await codeLoaded(walk.actor);
  await walk.send({ type: 'checkout.continue' });
  await walk.send({ type: 'payment.select', oid: 'card' });
  await walk.send({ type: 'part.type', text: '2 500,50' });
  expect(walk.actor.getSnapshot().context.step).toBe('choosePaymentType');
  const draft = draftOf(walk.actor.getSnapshot());
  expect(draft.typed).toEqual({ part: '2 500,50' });
  walk.actor.stop();
  const resumed = await reloadedOn('choosePaymentType', bill, draft);
  expect(resumed.getSnapshot().context.partTyped).toBe('2 500,50');
  expect(resumed.getSnapshot().context.typed).toEqual({});
  expect(draftOf(resumed.getSnapshot())).toEqual(draft);
  resumed.stop();
  // The bill no longer paid in parts (paid meanwhile by one payment of the whole): the part is left out.
  const whole = await reloadedOn('choosePaymentType', { ...bill, parts: null }, draft);
  expect(whole.getSnapshot().context.partTyped).toBeNull();
  whole.stop();
});

test('every step of the chart is walked', () => {
  expect(Object.keys(walks).sort()).toEqual(Object.keys(steps).sort());
});

test('the walks make choices: each draft differs from a fresh checkout\'s', async () => {
  for (const step of Object.keys(walks) as Step[]) {
    const { actor, billOnReload } = await walks[step]();
    const fresh = checkout({ bill: billOnReload });
    await codeLoaded(fresh.actor);
    expect([step, draftOf(actor.getSnapshot())]).not.toEqual([step, draftOf(fresh.actor.getSnapshot())]);
    actor.stop();
    fresh.actor.stop();
  }
});
