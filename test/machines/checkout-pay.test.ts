import { createActor, fromPromise } from 'xstate';
import type { BankWidgetInput, BankWidgetOutput } from '../../src/machines/bankWidget';
import { checkoutMachine, derive, type CheckoutInput } from '../../src/machines/checkout';
import { paymentMachine } from '../../src/machines/payment';
import type { PaymentStatusInput, PaymentStatusOutput } from '../../src/machines/paymentStatus';
import type { PaymentUrlRequest, PaymentUrlResponse } from '../../src/services/types';
import { aBill, aType, aUser, usualTypes } from '../fixtures/billBuilder';
import { codeLoaded } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeRequest, flush } from '../fixtures/fakes';

const billWithEmail = (overrides: Parameters<typeof aBill>[0] = {}) => aBill({ objectOID: 'bill-1', ...overrides, info: { Email: 'payer@example.com', ...overrides.info } });

const cardAnswer: PaymentUrlResponse = { success: true, isClosedWithoutProcessing: false, info: { orderId: 'order-1', formUrl: 'https://acquirer.example/form/order-1' } };
const sbpAnswer: PaymentUrlResponse = {
  success: true,
  isClosedWithoutProcessing: false,
  info: { orderId: 'order-2', formUrl: 'https://bank.example/sbp/qr-2', data: { payload: 'https://bank.example/sbp/qr-2', qrcId: 'qr-2', image: { content: 'iVBORw0KGgo=' } } },
};
const widgetAnswer: PaymentUrlResponse = { success: true, isClosedWithoutProcessing: false, info: { orderId: 'order-3', bankInvoiceId: 'inv-3', formUrl: 'https://acquirer.example/form/order-3' } };

/**
 * The checkout on the choose-payment-type step with fake effects; every request waits for the test's answer. Pay runs
 * the real payment machine (payment.ts), the checkout's `payment` child, whose state `paying()` reads.
 */
async function atChoosePaymentType(input: Partial<CheckoutInput> = {}, points = 0) {
  const requestPaymentUrl = fakeRequest<PaymentUrlResponse, PaymentUrlRequest>();
  const bankWidget = fakeRequest<BankWidgetOutput, BankWidgetInput>();
  const paymentStatus = fakeRequest<PaymentStatusOutput, PaymentStatusInput>();
  const checkEmail = fakeRequest<string, { email: string }>();
  const navigations: string[] = [];
  const logged: unknown[] = [];
  const { loadCode } = codeFrom({
    paying: {
      payment: paymentMachine.provide({
        // A fake stands in for the widget machine: paying sees only its input and output.
        actors: { requestPaymentUrl: requestPaymentUrl.logic, bankWidget: bankWidget.logic as never },
        actions: {
          'go to url': (_, { url }) => void navigations.push(url),
          'log error': (_, { error }) => void logged.push(error),
        },
      }),
      // Fakes stand in for the other child machines: the checkout sees only their input and output.
      paymentStatus: paymentStatus.logic as never,
      offer: fromPromise(async () => undefined) as never,
    },
  });
  const actor = createActor(
    checkoutMachine.provide({
      actors: { checkEmail: checkEmail.logic, loadCode },
    }),
    { input: { bill: billWithEmail(), user: null, isDesktop: true, ...input } },
  ).start();
  // Points as a checked phone applies them (the points screen's own test is in checkout-navigation).
  if (points > 0) actor.send({ type: 'code.confirmed', request: { purpose: 'use-points', phone: '79990000001', points } });
  actor.send({ type: 'checkout.continue' });
  await codeLoaded(actor);
  expect(actor.getSnapshot().context.step).toBe('choosePaymentType');
  const answer = async (response: PaymentUrlResponse) => {
    requestPaymentUrl.last.answer.resolve(response);
    await flush();
  };
  const snapshot = () => actor.getSnapshot();
  const where = () => snapshot().value;
  const paying = () => snapshot().children.payment?.getSnapshot().value;
  return { actor, requestPaymentUrl, bankWidget, paymentStatus, checkEmail, navigations, logged, answer, snapshot, where, paying };
}

describe('card and direct bank redirect', () => {
  test('the first type is preselected; Pay asks for the payment URL with the bill, the type, the points, the e-mail and the user, and goes to info.formUrl', async () => {
    const { actor, requestPaymentUrl, answer, navigations, snapshot, where, paying } = await atChoosePaymentType();
    expect(snapshot().context.selectedTypeOid).toBe('type-card');
    actor.send({ type: 'payment.pay' });
    expect(where()).toEqual({ choosePaymentType: 'paying' });
    expect(paying()).toBe('requestingPaymentUrl');
    expect(snapshot().hasTag('busy')).toBe(true);
    expect(requestPaymentUrl.last.input).toEqual({ objectOID: 'bill-1', pointsSum: null, cardTypeOID: 'type-card', email: 'payer@example.com', userOID: null });
    await answer(cardAnswer);
    expect(where()).toEqual({ choosePaymentType: 'redirecting' });
    expect(snapshot().hasTag('redirecting')).toBe(true);
    expect(navigations).toEqual(['https://acquirer.example/form/order-1']);
  });

  test('a double click on Pay makes one attempt', async () => {
    const { actor, requestPaymentUrl, answer, navigations } = await atChoosePaymentType();
    actor.send({ type: 'payment.pay' });
    actor.send({ type: 'payment.pay' });
    await answer(cardAnswer);
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.calls).toHaveLength(1);
    expect(navigations).toHaveLength(1);
  });

  test('AllSberP is a redirect to info.formUrl too', async () => {
    const bill = billWithEmail({ cardTypes: [aType({ OID: 'type-direct', Code: 'AllSberP', Name: 'Сбербанк' })] });
    const { actor, answer, navigations } = await atChoosePaymentType({ bill });
    actor.send({ type: 'payment.pay' });
    await answer(cardAnswer);
    expect(navigations).toEqual([cardAnswer.info!.formUrl]);
  });

  test('a signed-in customer’s oid, the e-mail used and the points travel in the request', async () => {
    const bill = billWithEmail({ info: { Email: null, CustNo: 'C-1', Summ: 8000 }, pointsEnabled: true, usefulPoints: 3000 });
    const { actor, requestPaymentUrl } = await atChoosePaymentType({ bill, user: aUser({ oid: 'user-7', email: 'loyal@example.com' }) }, 1000);
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.last.input).toEqual({ objectOID: 'bill-1', pointsSum: 1000, cardTypeOID: 'type-card', email: 'loyal@example.com', userOID: 'user-7' });
  });
});

describe('no payment URL: the step says so and the flow stops', () => {
  test.each([
    ['card without formUrl', 'type-card', { success: true, info: { orderId: 'o' } }],
    ['fast payment without payload', 'type-sbp', { success: true, info: { orderId: 'o', data: { qrcId: 'q' } } }],
    ['fast payment without qrcId', 'type-sbp', { success: true, info: { orderId: 'o', data: { payload: 'https://bank.example/x' } } }],
    ['bank-app pay without invoice', 'type-sberpay', { success: true, info: { orderId: 'o', formUrl: 'https://x.example' } }],
    ['no order at all', 'type-card', { success: false, error: 'Ошибка' }],
  ] as const)('%s', async (_name, oid, response) => {
    const { actor, answer, navigations, bankWidget, paymentStatus, snapshot, where } = await atChoosePaymentType();
    actor.send({ type: 'payment.select', oid });
    actor.send({ type: 'payment.pay' });
    await answer(response as PaymentUrlResponse);
    expect(where()).toEqual({ choosePaymentType: 'choosing' });
    expect(snapshot().context.problem).toBe('no payment url');
    expect(navigations).toEqual([]);
    expect(bankWidget.calls).toHaveLength(0);
    expect(paymentStatus.calls).toHaveLength(0);
  });

  test('a refused request is logged and shows the same message; choosing again clears it', async () => {
    const { actor, requestPaymentUrl, logged, snapshot, where } = await atChoosePaymentType();
    actor.send({ type: 'payment.pay' });
    const error = new Error('500');
    requestPaymentUrl.last.answer.reject(error);
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'choosing' });
    expect(snapshot().context.problem).toBe('no payment url');
    expect(logged).toEqual([error]);
    actor.send({ type: 'payment.select', oid: 'type-sbp' });
    expect(snapshot().context.problem).toBeNull();
  });
});

/** A stale tab: the bill was paid meanwhile and the server refuses a new attempt with 409 'Счет уже оплачен'. */
const alreadyPaid = Object.assign(new Error('Счет уже оплачен'), { status: 409 });

describe('a bill paid meanwhile', () => {
  test('Pay on a stale tab: the step says the bill is already paid, not that paying failed', async () => {
    const { actor, requestPaymentUrl, logged, snapshot, where } = await atChoosePaymentType();
    actor.send({ type: 'payment.pay' });
    requestPaymentUrl.last.answer.reject(alreadyPaid);
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'alreadyPaid' });
    expect(snapshot().hasTag('already paid')).toBe(true);
    expect(snapshot().context.problem).toBeNull();
    // A paid bill has no step to go back to either.
    expect(snapshot().context.history).toEqual([]);
    expect(logged).toEqual([]);
    // Nothing more to pay: a second Pay asks nothing.
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.calls).toHaveLength(1);
  });

  test('other refusals (a 422, a 500) still say paying failed', async () => {
    for (const status of [422, 500]) {
      const { actor, requestPaymentUrl, snapshot, where } = await atChoosePaymentType();
      actor.send({ type: 'payment.pay' });
      requestPaymentUrl.last.answer.reject(Object.assign(new Error('refused'), { status }));
      await flush();
      expect(where()).toEqual({ choosePaymentType: 'choosing' });
      expect(snapshot().context.problem).toBe('no payment url');
    }
  });
});

describe('a bill whose deadline passed', () => {
  test("Pay refused as expired says the bill expired (no other way can help), and logs no fault", async () => {
    const { actor, requestPaymentUrl, logged, snapshot, where } = await atChoosePaymentType();
    actor.send({ type: 'payment.pay' });
    requestPaymentUrl.last.answer.reject(Object.assign(new Error('Срок оплаты счета истек'), { status: 422, body: { success: false, error: 'Срок оплаты счета истек', closedAs: 'expired' } }));
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'choosing' });
    expect(snapshot().context.problem).toBe('bill expired');
    // The page's logger skips a refusal with no error (logErrorOf): the bill's state is no fault.
    expect(logged).toEqual([null]);
  });

  test('a cancelled bill\'s refusal still says paying failed', async () => {
    const { actor, requestPaymentUrl, snapshot } = await atChoosePaymentType();
    actor.send({ type: 'payment.pay' });
    requestPaymentUrl.last.answer.reject(Object.assign(new Error('Счет отменен'), { status: 422, body: { closedAs: 'cancelled' } }));
    await flush();
    expect(snapshot().context.problem).toBe('no payment url');
  });
});

describe('the receipt e-mail on the payment step', () => {
  test('unchanged, Pay goes at once with it; changed, the server checks the new one first and Pay goes on with it', async () => {
    const { actor, requestPaymentUrl, checkEmail, where, paying } = await atChoosePaymentType();
    actor.send({ type: 'payment.pay', email: 'payer@example.com' });
    expect(checkEmail.calls).toHaveLength(0);
    expect(requestPaymentUrl.last.input.email).toBe('payer@example.com');
    requestPaymentUrl.last.answer.reject(new Error('500'));
    await flush();

    actor.send({ type: 'payment.pay', email: 'other@example.com' });
    expect(where()).toEqual({ choosePaymentType: 'checkingEmail' });
    expect(checkEmail.last.input).toEqual({ email: 'other@example.com' });
    expect(requestPaymentUrl.calls).toHaveLength(1);
    checkEmail.last.answer.resolve('other@example.com');
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'paying' });
    expect(paying()).toBe('requestingPaymentUrl');
    expect(requestPaymentUrl.last.input.email).toBe('other@example.com');
  });

  test('a changed e-mail the server refuses: no payment, the field is emptied', async () => {
    const { actor, requestPaymentUrl, checkEmail, snapshot, where } = await atChoosePaymentType();
    actor.send({ type: 'payment.pay', email: 'bad@example.com' });
    checkEmail.last.answer.reject(new Error('Неверный email'));
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'choosing' });
    expect(snapshot().context.emailError).toBe(true);
    expect(derive.emailUsed(snapshot().context)).toBe('');
    expect(requestPaymentUrl.calls).toHaveLength(0);
  });

  test('agreements are asked for before the e-mail is checked', async () => {
    const { actor, checkEmail, snapshot } = await atChoosePaymentType({
      bill: billWithEmail({ cardTypes: [aType({ IsShowAggregatorOffer: true }), ...usualTypes().slice(1)] }),
    });
    actor.send({ type: 'payment.pay', email: 'other@example.com' });
    expect(snapshot().context.agreementErrors).toEqual({ aggregator: true, executor: false });
    expect(checkEmail.calls).toHaveLength(0);
  });
});

/** The checkout after Pay with a way to pay whose answer came. */
async function paidWith(oid: string, response: PaymentUrlResponse, input: Partial<CheckoutInput> = {}) {
  const checkout = await atChoosePaymentType(input);
  checkout.actor.send({ type: 'payment.select', oid });
  checkout.actor.send({ type: 'payment.pay' });
  await checkout.answer(response);
  return checkout;
}

describe('fast payment (SBP)', () => {
  const atSbp = (input: Partial<CheckoutInput> = {}) => paidWith('type-sbp', sbpAnswer, input);

  test('stores the URL data, the bank-app link and the transaction, shows the QR and polls the status', async () => {
    const { snapshot, paymentStatus, navigations } = await atSbp();
    expect(snapshot().context).toMatchObject({
      step: 'sbp',
      formUrl: 'https://bank.example/sbp/qr-2',
      transactionID: 'qr-2',
      qrSrc: 'data:image/png;base64,iVBORw0KGgo=',
      history: ['guest', 'choosePaymentType'],
    });
    // On a desktop the payer pays with another device: a hidden tab pauses polling as on every other step.
    expect(paymentStatus.last.input).toEqual({ transactionID: 'qr-2', billOID: 'bill-1', keepPollingWhenHidden: false });
    expect(navigations).toEqual([]);
  });

  test('on a phone polling goes on while the payer is in the bank app', async () => {
    const { paymentStatus } = await atSbp({ isDesktop: false });
    expect(paymentStatus.last.input).toEqual({ transactionID: 'qr-2', billOID: 'bill-1', keepPollingWhenHidden: true });
  });

  test.each([
    ['success', []],
    ['declined', ['guest', 'choosePaymentType']],
  ] as const)('status %s: the result replaces the step (history %j)', async (status, history) => {
    const { snapshot, paymentStatus } = await atSbp();
    paymentStatus.last.answer.resolve({ status });
    await flush();
    expect(snapshot().context.step).toBe('result');
    expect(snapshot().context.history).toEqual(history);
  });

  test('an unknown order does not move the step', async () => {
    const { snapshot, paymentStatus } = await atSbp();
    paymentStatus.last.answer.resolve({ status: 'order not found' });
    await flush();
    expect(snapshot().context.step).toBe('sbp');
  });

  test("'Другой способ оплаты' goes back to choosing", async () => {
    const { actor, snapshot, where } = await atSbp();
    actor.send({ type: 'nav.back' });
    expect(where()).toEqual({ choosePaymentType: 'choosing' });
    expect(snapshot().context.selectedTypeOid).toBe('type-sbp');
  });
});

describe('an attempt of the bill still open', () => {
  const withOpen = () => {
    const bill = billWithEmail();
    const way = bill.cardTypes[0]!.OID;
    return { way, bill: { ...bill, openAttempt: { orderId: 'order-1', cardTypeOID: way, code: 'ALL' as const, status: 'created' as const, pointsUsed: 0 } } };
  };

  test("is said first: nothing else is taken until the payer goes back to it or confirms another way ('Отменить начатую оплату?')", async () => {
    const { bill } = withOpen();
    const { actor, requestPaymentUrl, snapshot } = await atChoosePaymentType({ bill });
    expect(snapshot().hasTag('open attempt')).toBe(true);
    expect(snapshot().hasTag('confirming another way')).toBe(false);
    // The form is not on offer: its events change nothing.
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.inputs).toEqual([]);
    actor.send({ type: 'openAttempt.abandon' });
    expect(snapshot().hasTag('open attempt')).toBe(true);

    actor.send({ type: 'openAttempt.chooseAnother' });
    expect(snapshot().hasTag('confirming another way')).toBe(true);
    expect(snapshot().hasTag('open attempt')).toBe(true);
    actor.send({ type: 'openAttempt.abandon' });
    expect(snapshot().hasTag('open attempt')).toBe(false);
    expect(snapshot().matches({ choosePaymentType: 'choosing' })).toBe(true);
    // Another way chosen and paid: the open attempt is still the context's, for the server to end at the bank.
    actor.send({ type: 'payment.select', oid: bill.cardTypes[1]!.OID });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.last.input).toMatchObject({ cardTypeOID: bill.cardTypes[1]!.OID });
  });

  test.each([
    ['said', []],
    ['asked to confirm', [{ type: 'openAttempt.chooseAnother' as const }]],
  ])("'Вернуться к оплате' while %s pays its way again, whatever way this tab had chosen", async (_, before) => {
    const { bill, way } = withOpen();
    const { actor, requestPaymentUrl, snapshot } = await atChoosePaymentType({ bill });
    actor.send({ type: 'payment.select', oid: bill.cardTypes[1]!.OID });
    for (const event of before) actor.send(event);
    actor.send({ type: 'openAttempt.resume' });
    expect(requestPaymentUrl.last.input).toMatchObject({ cardTypeOID: way });
    expect(snapshot().hasTag('busy')).toBe(true);
  });

  test('points covering the bill: no way to pay is needed, so no open attempt is said', async () => {
    const { bill } = withOpen();
    const { snapshot } = await atChoosePaymentType({ bill: { ...bill, info: { ...bill.info, Summ: 1000, CustNo: 'C-1' }, pointsEnabled: true, usefulPoints: 5000 } }, 5000);
    expect(snapshot().hasTag('open attempt')).toBe(false);
    expect(snapshot().matches({ choosePaymentType: 'choosing' })).toBe(true);
  });
});

describe('bank-app pay widget', () => {
  const atWidget = (input: Partial<CheckoutInput> = {}) => paidWith('type-sberpay', widgetAnswer, input);

  test('opens the widget with the bank invoice, the order, the bill, the type and the platform', async () => {
    const { bankWidget, where, snapshot, paying } = await atWidget({ isDesktop: false });
    expect(where()).toEqual({ choosePaymentType: 'paying' });
    expect(paying()).toBe('bankWidget');
    expect(snapshot().hasTag('busy')).toBe(true);
    expect(bankWidget.last.input).toEqual({ code: 'SberPaySite', bankInvoiceId: 'inv-3', orderId: 'order-3', billOid: 'bill-1', isDesktop: false });
    expect(snapshot().children.payment?.getSnapshot().context.response).toEqual(widgetAnswer);
  });

  test.each(['success', 'fail'] as const)('%s: the widget has sent the browser on; the checkout only waits', async (result) => {
    const { bankWidget, where, navigations } = await atWidget();
    bankWidget.last.answer.resolve({ result });
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'redirecting' });
    expect(navigations).toEqual([]);
  });

  test('closed: the payer chooses again and may pay again', async () => {
    const { actor, bankWidget, requestPaymentUrl, where } = await atWidget();
    bankWidget.last.answer.resolve({ result: 'closed' });
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'choosing' });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.calls).toHaveLength(2);
  });
});

describe('agreements', () => {
  const offerBill = () =>
    billWithEmail({ cardTypes: [aType({ IsShowAggregatorOffer: true, IsShowExecuterOffer: true }), ...usualTypes().slice(1)] });

  test('both shown agreements must be ticked; each check clears both errors', async () => {
    const { actor, requestPaymentUrl, snapshot } = await atChoosePaymentType({ bill: offerBill() });
    actor.send({ type: 'payment.pay' });
    expect(snapshot().context.agreementErrors).toEqual({ aggregator: true, executor: true });
    expect(requestPaymentUrl.calls).toHaveLength(0);

    actor.send({ type: 'agreement.set', kind: 'aggregator', checked: true });
    expect(snapshot().context.agreementErrors).toEqual({ aggregator: false, executor: false });
    actor.send({ type: 'payment.pay' });
    expect(snapshot().context.agreementErrors).toEqual({ aggregator: false, executor: true });
    expect(requestPaymentUrl.calls).toHaveLength(0);

    actor.send({ type: 'agreement.set', kind: 'executor', checked: true });
    expect(snapshot().context.agreementErrors).toEqual({ aggregator: false, executor: false });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.calls).toHaveLength(1);
  });

  test('unticking brings the error back on the next Pay; another type starts with no agreements', async () => {
    const { actor, snapshot } = await atChoosePaymentType({ bill: offerBill() });
    actor.send({ type: 'agreement.set', kind: 'aggregator', checked: true });
    actor.send({ type: 'agreement.set', kind: 'aggregator', checked: false });
    actor.send({ type: 'agreement.set', kind: 'executor', checked: true });
    actor.send({ type: 'payment.pay' });
    expect(snapshot().context.agreementErrors).toEqual({ aggregator: true, executor: false });
    actor.send({ type: 'payment.select', oid: 'type-sbp' });
    expect(derive.agreements(snapshot().context)).toEqual({ aggregator: false, executor: false });
    expect(snapshot().context.agreementErrors).toEqual({ aggregator: false, executor: false });
  });

  test('ticks survive switching the way to pay and back', async () => {
    const { actor, snapshot, requestPaymentUrl } = await atChoosePaymentType({ bill: offerBill() });
    actor.send({ type: 'agreement.set', kind: 'aggregator', checked: true });
    actor.send({ type: 'agreement.set', kind: 'executor', checked: true });
    actor.send({ type: 'payment.select', oid: 'type-sbp' });
    actor.send({ type: 'payment.select', oid: 'type-card' });
    expect(derive.agreements(snapshot().context)).toEqual({ aggregator: true, executor: true });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.calls).toHaveLength(1);
  });

  test('a type without offers needs no agreement', async () => {
    const { actor, requestPaymentUrl } = await atChoosePaymentType({ bill: offerBill() });
    actor.send({ type: 'payment.select', oid: 'type-sbp' });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.calls).toHaveLength(1);
  });

  test('the offer modal runs as the step’s child', async () => {
    const { snapshot } = await atChoosePaymentType({ bill: offerBill() });
    expect(snapshot().children.offer).toBeDefined();
  });
});

describe('covered by points', () => {
  const coverBill = () => billWithEmail({ info: { Summ: 1500, CustNo: 'C-2' }, pointsEnabled: true, usefulPoints: 5000 });

  test('no type is chosen; Pay closes the bill and goes to /success?withoutProcessing=1', async () => {
    const { actor, requestPaymentUrl, answer, navigations, snapshot, where, paying } = await atChoosePaymentType({ bill: coverBill() }, 1500);
    expect(snapshot().context.selectedTypeOid).toBeNull();
    actor.send({ type: 'payment.select', oid: 'type-card' });
    expect(snapshot().context.selectedTypeOid).toBeNull();
    actor.send({ type: 'payment.pay' });
    actor.send({ type: 'payment.pay' });
    expect(where()).toEqual({ choosePaymentType: 'paying' });
    expect(paying()).toBe('requestingPaymentUrl');
    expect(requestPaymentUrl.calls).toHaveLength(1);
    expect(requestPaymentUrl.last.input).toEqual({ objectOID: 'bill-1', pointsSum: 1500, cardTypeOID: null, email: 'payer@example.com', userOID: null });
    await answer({ success: true, isClosedWithoutProcessing: true, info: { orderId: 'order-9' } });
    expect(where()).toEqual({ choosePaymentType: 'redirecting' });
    expect(navigations).toHaveLength(1);
    expect(navigations[0]).toMatch(/^\/success\?withoutProcessing=1&/);
    expect(new URL(navigations[0]!, 'https://x.example').searchParams.get('billOid')).toBe('bill-1');
  });

  test("'Не списывать баллы': the points are given up, a way to pay is chosen again and the whole price is asked for", async () => {
    const { actor, requestPaymentUrl, snapshot } = await atChoosePaymentType({ bill: coverBill() }, 1500);
    expect(derive.isCoveredByPoints(snapshot().context)).toBe(true);
    actor.send({ type: 'points.clear' });
    expect(snapshot().context).toMatchObject({ usedPoints: 0, pointsToUse: null, selectedTypeOid: 'type-card' });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.last.input).toMatchObject({ pointsSum: null, cardTypeOID: 'type-card' });
  });

  test("'Не списывать баллы' with some points spent keeps the way to pay chosen", async () => {
    const { actor, snapshot } = await atChoosePaymentType({ bill: billWithEmail({ info: { CustNo: 'C-2' }, pointsEnabled: true, usefulPoints: 5000 }) }, 1000);
    actor.send({ type: 'payment.select', oid: 'type-sbp' });
    actor.send({ type: 'points.clear' });
    expect(snapshot().context).toMatchObject({ usedPoints: 0, selectedTypeOid: 'type-sbp' });
  });

  test('an answer that did not close the bill shows the points error', async () => {
    const { actor, answer, navigations, snapshot, where } = await atChoosePaymentType({ bill: coverBill() }, 1500);
    actor.send({ type: 'payment.pay' });
    await answer(cardAnswer);
    expect(where()).toEqual({ choosePaymentType: 'choosing' });
    expect(snapshot().context.problem).toBe('close with points failed');
    expect(navigations).toEqual([]);
  });

  test('a refused request is logged and shows the points error', async () => {
    const { actor, requestPaymentUrl, logged, snapshot } = await atChoosePaymentType({ bill: coverBill() }, 1500);
    actor.send({ type: 'payment.pay' });
    requestPaymentUrl.last.answer.reject(new Error('403'));
    await flush();
    expect(snapshot().context.problem).toBe('close with points failed');
    expect(logged).toHaveLength(1);
  });

  test('closed meanwhile in another tab (409): the step says the bill is already paid', async () => {
    const { actor, requestPaymentUrl, snapshot, where } = await atChoosePaymentType({ bill: coverBill() }, 1500);
    actor.send({ type: 'payment.pay' });
    requestPaymentUrl.last.answer.reject(alreadyPaid);
    await flush();
    expect(where()).toEqual({ choosePaymentType: 'alreadyPaid' });
    expect(snapshot().context.problem).toBeNull();
  });

  test('a bill refetched smaller than the points: the points are cut to its maximum, so the price never drops below zero', async () => {
    const { actor, snapshot } = await atChoosePaymentType({ bill: coverBill() }, 1500);
    actor.send({ type: 'session.updated', bill: billWithEmail({ info: { Summ: 1000, CustNo: 'C-2' }, pointsEnabled: true, usefulPoints: 5000 }), user: null });
    expect(snapshot().context).toMatchObject({ usedPoints: 1000, pointsToUse: 1000 });
    expect(derive.finalPrice(snapshot().context)).toBe(0);
  });
});

describe('a bill paid in parts', () => {
  const partsBill = () =>
    billWithEmail({
      info: { Summ: 2_500_000, CustNo: 'C-1' },
      cardTypes: [aType({ CommissionSumm: 0 })],
      pointsEnabled: true,
      usefulPoints: 3000,
      parts: { minimum: 50_000, paid: 1_000_000, remaining: 1_500_000, pointsSpent: false },
    });

  test('no part typed, none is sent (the server takes what remains); a part typed is sent in roubles', async () => {
    const { actor, requestPaymentUrl, answer } = await atChoosePaymentType({ bill: partsBill() });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.last.input).not.toHaveProperty('partSum');
    await answer({ success: false, error: 'Сервис недоступен' });
    actor.send({ type: 'part.type', text: '600 000,25' });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.last.input).toMatchObject({ partSum: 600_000.25 });
  });

  test('a part the bill cannot take is not asked for; the total follows the part typed', async () => {
    const { actor, requestPaymentUrl, snapshot } = await atChoosePaymentType({ bill: partsBill() });
    actor.send({ type: 'part.type', text: '10 000' });
    expect(derive.partProblem(snapshot().context)).toEqual({ kind: 'below-minimum', leastKopecks: 5_000_000 });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.calls).toHaveLength(0);
    expect(snapshot().value).toEqual({ choosePaymentType: 'choosing' });
    actor.send({ type: 'part.type', text: '100 000' });
    expect(derive.amountToPay(snapshot().context)).toBe(10_000_000);
  });

  test("'Вернуться к оплате' pays the open attempt's part, not the part this tab typed; another way pays the part typed", async () => {
    const bill = partsBill();
    const way = bill.cardTypes[0]!.OID;
    const open = { orderId: 'order-1', cardTypeOID: way, code: 'ALL' as const, status: 'created' as const, pointsUsed: 0, part: 600_000 };
    const { actor, requestPaymentUrl, answer, snapshot } = await atChoosePaymentType({ bill: { ...bill, openAttempt: open } });
    expect(snapshot().context.openAttempt).toEqual({ cardTypeOID: way, pointsUsed: 0, part: 600_000 });
    actor.send({ type: 'openAttempt.chooseAnother' });
    actor.send({ type: 'openAttempt.abandon' });
    actor.send({ type: 'part.type', text: '100 000' });
    actor.send({ type: 'payment.select', oid: way });
    actor.send({ type: 'payment.pay' });
    expect(requestPaymentUrl.last.input).toMatchObject({ partSum: 100_000 });
    await answer({ success: false, error: 'Сервис недоступен' });

    // Another tab of the same bill, its attempt still open: back to it pays its part.
    const other = await atChoosePaymentType({ bill: { ...bill, openAttempt: open } });
    other.actor.send({ type: 'openAttempt.resume' });
    expect(other.requestPaymentUrl.last.input).toMatchObject({ cardTypeOID: way, partSum: 600_000 });
  });
  test('points applied never exceed the part typed: a smaller part takes fewer', async () => {
    const bill = billWithEmail({ info: { Summ: 200_000, CustNo: 'C-1' }, cardTypes: [aType({ CommissionSumm: 0 })], pointsEnabled: true, usefulPoints: 3000, parts: { minimum: 1000, paid: 0, remaining: 200_000, pointsSpent: false } });
    const { actor, snapshot } = await atChoosePaymentType({ bill }, 3000);
    expect(snapshot().context.usedPoints).toBe(3000);
    actor.send({ type: 'part.type', text: '2000' });
    expect(snapshot().context.usedPoints).toBe(2000);
    expect(derive.amountToPay(snapshot().context)).toBe(0);
  });
});
