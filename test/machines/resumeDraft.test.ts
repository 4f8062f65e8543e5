import { createActor } from 'xstate';
import { checkoutMachine, derive, type CheckoutInput } from '../../src/machines/checkout';
import { draftOf } from '../../src/machines/checkoutDraft';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import type { CheckoutDraft } from '../../src/services/checkoutDraft';
import type { Bill, CodeRequest } from '../../src/services/types';
import { pointsBill, accountBill } from '../fixtures/accountFlows';
import { aBill, aUser } from '../fixtures/billBuilder';
import { codeLoaded, inertCheckoutChildren } from '../fixtures/checkoutChildren';

/**
 * A reload on any step (or Back from the bank's card form, which loads the page again): this tab's draft gives back what
 * was chosen and typed, and the step comes back when what it needs is still there.
 */

const emptyDraft: CheckoutDraft = { email: null, typed: {}, selectedTypeOid: null, agreements: {}, usedPoints: 0, pointsToUse: null, phoneChecked: false, transactionID: null, code: null };
const draftWith = (overrides: Partial<CheckoutDraft>): CheckoutDraft => ({ ...emptyDraft, ...overrides });

async function reloaded(input: Partial<CheckoutInput> & { bill: Bill }) {
  const { paymentStatus, freeCall, pointsCode, passwordCode, registrationCode, actors } = inertCheckoutChildren();
  const flows = { pointsCode, passwordCode, registrationCode };
  const logic = checkoutMachine.provide({ actors, actions: resumeAfterReload.actions, guards: resumeAfterReload.guards });
  const actor = createActor(logic, { input: { user: null, isDesktop: true, ...input } }).start();
  await codeLoaded(actor);
  /** The draft the composition root would keep now (keepDraft.ts). */
  const kept = () => draftOf(actor.getSnapshot());
  return { actor, paymentStatus, flows, freeCall, kept };
}

const card = (bill: Bill) => bill.cardTypes[0]!.OID;
const sbp = (bill: Bill) => bill.cardTypes.find((type) => type.Code === 'SBP')!.OID;

describe('a reload with this tab\'s draft', () => {
  test('the first step: the e-mail typed but not sent is in the field again', async () => {
    const { actor } = await reloaded({ bill: aBill(), resumePath: '/noReg', draft: draftWith({ typed: { email: 'payer@exa' } }) });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
    expect(actor.getSnapshot().context).toMatchObject({ typed: { email: 'payer@exa' }, history: [] });
    expect(derive.emailUsed(actor.getSnapshot().context)).toBe('');
  });

  test('the way to pay: the e-mail, the way, the ticks and the points as they were; Back to the first step', async () => {
    const bill = pointsBill({ cardTypes: pointsBill().cardTypes.map((type) => ({ ...type, IsShowAggregatorOffer: true })) });
    const draft = draftWith({
      email: 'payer@example.com',
      selectedTypeOid: sbp(bill),
      agreements: { [sbp(bill)]: { aggregator: true, executor: false }, gone: { aggregator: true, executor: true } },
      usedPoints: 1000,
      pointsToUse: 1000,
      phoneChecked: true,
    });
    const { actor } = await reloaded({ bill, resumePath: '/choosePaymentType', draft });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().value).toMatchObject({ choosePaymentType: 'choosing' });
    expect(context).toMatchObject({ selectedTypeOid: sbp(bill), usedPoints: 1000, pointsToUse: 1000, phoneChecked: true, history: ['guest'] });
    // A type the bill no longer offers keeps no ticks.
    expect(context.agreements).toEqual({ [sbp(bill)]: { aggregator: true, executor: false } });
    expect(derive.emailUsed(context)).toBe('payer@example.com');
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
  });

  test('what the bill no longer allows is not given back: a type it dropped, points over its maximum', async () => {
    const bill = pointsBill({ usefulPoints: 500 });
    const { actor } = await reloaded({ bill, resumePath: '/choosePaymentType', draft: draftWith({ email: 'p@example.com', selectedTypeOid: 'gone', usedPoints: 3000 }) });
    expect(actor.getSnapshot().context).toMatchObject({ selectedTypeOid: card(bill), usedPoints: 500 });
  });

  test('the way to pay without an e-mail to send the receipt to: the first step', async () => {
    const { actor } = await reloaded({ bill: aBill(), resumePath: '/choosePaymentType', draft: draftWith({ selectedTypeOid: 'type-sbp' }) });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
    expect(actor.getSnapshot().context.selectedTypeOid).toBe('type-sbp');
  });

  test('no draft at all (another tab, storage refused): the e-mail the bill has still opens the way to pay', async () => {
    const { actor } = await reloaded({ bill: aBill({ info: { Email: 'bill@example.com' } }), resumePath: '/choosePaymentType' });
    expect(actor.getSnapshot().value).toMatchObject({ choosePaymentType: 'choosing' });
  });

  test('back from the bank\'s card form: the attempt still open at the acquirer is told to the way-to-pay step', async () => {
    const bill = aBill();
    const open = { orderId: 'order-1', cardTypeOID: card(bill), code: 'ALL' as const, status: 'created' as const, pointsUsed: 0 };
    const { actor } = await reloaded({ bill: { ...bill, openAttempt: open }, resumePath: '/choosePaymentType', draft: draftWith({ email: 'payer@example.com', selectedTypeOid: card(bill) }) });
    expect(actor.getSnapshot().value).toMatchObject({ choosePaymentType: { openAttempt: 'said' } });
    expect(actor.getSnapshot().context.openAttempt).toEqual({ cardTypeOID: card(bill), pointsUsed: 0, part: null });
  });

  test('the points screen comes back with the points asked for', async () => {
    const { actor, flows } = await reloaded({ bill: pointsBill(), resumePath: '/usePoints', draft: draftWith({ pointsToUse: 1200 }) });
    expect(actor.getSnapshot().value).toMatchObject({ usePoints: 'choosing' });
    expect(actor.getSnapshot().context).toMatchObject({ pointsToUse: 1200, history: ['guest'] });
    expect(flows.pointsCode.runs).toHaveLength(1);
  });

  test.each([
    ['/register', 'register', 'registrationCode', { purpose: 'register', phone: '7999', form: { surname: 'Петров', name: 'Пётр', patronymic: '', phone: '7999', privacy: false } }],
    ['/forgot-password', 'forgotPassword', 'passwordCode', { purpose: 'forgot-password', phone: '79990000002' }],
  ] as const)('%s comes back with the form as typed (its flow starts with it)', async (resumePath, step, flow, form: CodeRequest) => {
    const { actor, flows } = await reloaded({ bill: accountBill(), resumePath, draft: draftWith({ typed: { form } }) });
    expect(actor.getSnapshot().context).toMatchObject({ step, history: ['account'] });
    expect(flows[flow].last.input).toMatchObject({ draft: form });
  });

  test('the result of a fast payment comes back, polled again; Back goes to choosing', async () => {
    const bill = aBill();
    const { actor, paymentStatus } = await reloaded({ bill, resumePath: '/result', draft: draftWith({ email: 'p@example.com', transactionID: 'qrc-1' }) });
    expect(actor.getSnapshot().value).toBe('result');
    expect(actor.getSnapshot().context.history).toEqual(['guest', 'choosePaymentType']);
    expect(paymentStatus.last.input).toMatchObject({ transactionID: 'qrc-1' });
  });

  test('the fast payment settled during the reload (its attempt open no more): its result', async () => {
    const { actor, paymentStatus } = await reloaded({ bill: aBill(), resumePath: '/sbp', draft: draftWith({ email: 'p@example.com', transactionID: 'qrc-1' }) });
    expect(actor.getSnapshot().value).toBe('result');
    expect(paymentStatus.last.input).toMatchObject({ transactionID: 'qrc-1' });
  });

  test('the free-call screen comes back to a payer not signed in, its restore code behind it; signed in (the call came), the main route', async () => {
    const sentCode = { purpose: 'forgot-password' as const, phone: '+7 (999) ***-**-02', secondsLeft: 0 };
    const codeDraft: CodeRequest = { purpose: 'forgot-password', phone: '79990000002' };
    const waiting = await reloaded({ bill: accountBill({ sentCode }), resumePath: '/checkByPhone', draft: draftWith({ code: codeDraft }) });
    expect(waiting.actor.getSnapshot().context).toMatchObject({ step: 'checkByPhone', history: ['account', 'forgotPassword', 'checkSendCode'] });
    expect(waiting.freeCall.last.input).toEqual({ phone: '79990000002' });
    expect(waiting.flows.passwordCode.last.input).toMatchObject({ resume: { request: codeDraft } });
    const signedIn = await reloaded({ bill: accountBill({ sentCode }), user: aUser(), resumePath: '/checkByPhone', draft: draftWith({ code: codeDraft }) });
    expect(signedIn.actor.getSnapshot().value).toMatchObject({ account: { signedIn: 'editing' } });
    expect(signedIn.actor.getSnapshot().context.history).toEqual([]);
  });

  test('nothing named in the address bar: nothing is resumed, even with a draft', async () => {
    const { actor } = await reloaded({ bill: aBill(), resumePath: null, draft: draftWith({ email: 'p@example.com', typed: { email: 'x' } }) });
    expect(actor.getSnapshot().context).toMatchObject({ anotherEmail: null, typed: {} });
  });
});

describe('what the draft keeps', () => {
  test('every choice and every field typed is kept as it changes', async () => {
    const bill = aBill({ cardTypes: aBill().cardTypes.map((type) => ({ ...type, IsShowExecuterOffer: true })) });
    const { actor, kept } = await reloaded({ bill, resumePath: '/choosePaymentType', draft: draftWith({ email: 'payer@example.com' }) });
    actor.send({ type: 'payment.select', oid: 'type-sbp' });
    expect(kept()).toMatchObject({ selectedTypeOid: 'type-sbp', email: 'payer@example.com' });
    actor.send({ type: 'agreement.set', kind: 'executor', checked: true });
    expect(kept().agreements).toEqual({ 'type-sbp': { aggregator: false, executor: true } });
    actor.send({ type: 'payer.typed', typed: { email: 'changed@exa' } });
    expect(kept().typed).toEqual({ email: 'changed@exa' });
  });
});
