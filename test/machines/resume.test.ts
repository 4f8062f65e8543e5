import { createActor } from 'xstate';
import { appMachine } from '../../src/machines/app';
import { checkoutMachine, derive, type CheckoutInput } from '../../src/machines/checkout';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import { ApiError } from '../../src/services/http';
import type { Bill, LoyaltyUser } from '../../src/services/types';
import { aBill } from '../fixtures/billBuilder';
import { codeLoaded, inertCheckoutChildren } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeCallback, fakeRequest, flush } from '../fixtures/fakes';
import { aReceipt } from '../fixtures/receipt';

/** The checkout with its children inert: what matters here is where it starts and with what. */
async function startCheckout(input: Partial<CheckoutInput>, { resuming = true } = {}) {
  const { paymentStatus, actors } = inertCheckoutChildren();
  const logic = checkoutMachine.provide({
    actors,
    actions: resuming ? resumeAfterReload.actions : {},
    guards: resuming ? resumeAfterReload.guards : {},
  });
  const actor = createActor(logic, { input: { bill: aBill(), user: null, isDesktop: true, ...input } }).start();
  await codeLoaded(actor);
  return { actor, paymentStatus };
}

const sbpType = (bill: Bill) => bill.cardTypes.find((type) => type.Code === 'SBP')!;
const withOpenSbp = (bill: Bill, status: 'created' | 'success' = 'created'): Bill => ({
  ...bill,
  openAttempt: { orderId: 'order-1', cardTypeOID: sbpType(bill).OID, code: 'SBP', status, pointsUsed: 0, sbp: { payload: 'https://bank/qr-1', qrcId: 'qrc-1', image: 'iVBORw0KGgo=' } },
});

describe('resume after a reload', () => {
  test('the composition root wires resuming in (checkoutResume.ts); without it a reload starts at the main route', async () => {
    const { actor, paymentStatus } = await startCheckout({ bill: withOpenSbp(aBill()), resumePath: '/sbp' }, { resuming: false });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
    expect(actor.getSnapshot().context.history).toEqual([]);
    expect(paymentStatus.runs).toHaveLength(0);
  });

  test("reloaded on the fast-payment step with its attempt open: the QR and its polling come back, Back goes to choosing ('Оплата уже начата' first)", async () => {
    const bill = withOpenSbp(aBill());
    const { actor, paymentStatus } = await startCheckout({ bill, resumePath: '/sbp' });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().value).toBe('sbp');
    expect(context).toMatchObject({ transactionID: 'qrc-1', formUrl: 'https://bank/qr-1', qrSrc: 'data:image/png;base64,iVBORw0KGgo=', selectedTypeOid: sbpType(bill).OID });
    expect(context.history).toEqual(['guest', 'choosePaymentType']);
    expect(paymentStatus.last.input).toMatchObject({ transactionID: 'qrc-1', billOID: bill.objectOID });
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().value).toMatchObject({ choosePaymentType: { openAttempt: 'said' } });
    expect(actor.getSnapshot().context.selectedTypeOid).toBe(sbpType(bill).OID);
  });

  test.each([
    ['no open attempt', aBill(), '/sbp'],
    ['another step in the address bar', withOpenSbp(aBill()), '/checkSendCode'],
    ['no step in the address bar', withOpenSbp(aBill()), null],
    ['an attempt of a type the bill no longer offers', { ...withOpenSbp(aBill()), openAttempt: { ...withOpenSbp(aBill()).openAttempt!, cardTypeOID: 'gone' } }, '/sbp'],
  ])('%s: the main route, history empty', async (_, bill, resumePath) => {
    const { actor } = await startCheckout({ bill, resumePath });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
    expect(actor.getSnapshot().context.history).toEqual([]);
  });
});

describe("'Попробовать снова'", () => {
  test('the bill opens on choosing the way to pay, with the declined attempt\'s e-mail and way kept; Back goes to the main route', async () => {
    const bill = aBill();
    const { actor } = await startCheckout({ bill: { ...bill, retry: { cardTypeOID: sbpType(bill).OID, email: 'payer@example.ru', ownAttempt: true, amount: 12345.67, reason: null } } });
    expect(actor.getSnapshot().value).toMatchObject({ choosePaymentType: 'choosing' });
    expect(actor.getSnapshot().context.selectedTypeOid).toBe(sbpType(bill).OID);
    expect(derive.emailUsed(actor.getSnapshot().context)).toBe('payer@example.ru');
    actor.send({ type: 'nav.back' });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
  });

  test("'Оплатить через СБП' from the declined card's page: the bill opens with fast payment chosen instead", async () => {
    const bill = aBill();
    const retry = { cardTypeOID: bill.cardTypes[0]!.OID, email: 'payer@example.ru', ownAttempt: true, amount: 12530.86, reason: 'insufficient funds' as const };
    const { actor } = await startCheckout({ bill: { ...bill, retry }, retryWay: 'SBP' });
    expect(actor.getSnapshot().value).toMatchObject({ choosePaymentType: 'choosing' });
    expect(actor.getSnapshot().context.selectedTypeOid).toBe(sbpType(bill).OID);
    // A way the bill does not offer: the declined one, as without it.
    const { actor: other } = await startCheckout({ bill: { ...bill, retry }, retryWay: 'AllSberP' });
    expect(other.getSnapshot().context.selectedTypeOid).toBe(bill.cardTypes[0]!.OID);
  });

  test('without an e-mail to send the receipt to, it starts at the main route', async () => {
    const bill = aBill();
    const { actor } = await startCheckout({ bill: { ...bill, retry: { cardTypeOID: sbpType(bill).OID, email: null, ownAttempt: true, amount: 12345.67, reason: null } } });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
  });

  test("another session's retry link: the e-mail came masked, so it fills no field and the bill starts at the main route", async () => {
    const bill = aBill();
    const { actor } = await startCheckout({ bill: { ...bill, retry: { cardTypeOID: sbpType(bill).OID, email: 'pa***@example.ru', ownAttempt: false, amount: 12345.67, reason: null } } });
    expect(actor.getSnapshot().value).toMatchObject({ guest: 'editing' });
    expect(derive.emailUsed(actor.getSnapshot().context)).toBe('');
  });
});

describe('a paid bill\'s link', () => {
  const receipt = aReceipt({ items: [{ name: 'Счет', quantity: 1, price: 100, amount: 100, vat: 'none' }] });
  function startApp() {
    const loadBill = fakeRequest<Bill, { billLink: string; retry?: string | null }>();
    const loadUser = fakeRequest<LoyaltyUser | null, void>();
    const effects: unknown[] = [];
    const actor = createActor(
      appMachine.provide({
        actors: {
          loadBill: loadBill.logic,
          loadUser: loadUser.logic,
          logout: fakeRequest<void, void>().logic,
          loadCode: codeFrom({ paidBill: {} }).loadCode,
          checkout: fakeCallback().logic as never,
        },
        actions: { 'show data error title': () => effects.push('title'), 'track sign-in': () => undefined, 'log error': () => undefined },
      }),
      { input: { billLink: 'bill-1', isDesktop: true, retryOrder: 'order-0' } },
    ).start();
    return { actor, loadBill, loadUser, effects };
  }

  test('the 409 with the receipt: \'Счет оплачен\' with it, not the data error; the retry order is asked about', async () => {
    const { actor, loadBill, loadUser, effects } = startApp();
    expect(loadBill.last.input).toEqual({ billLink: 'bill-1', retry: 'order-0' });
    loadUser.last.answer.resolve(null);
    loadBill.last.answer.reject(new ApiError('Счет уже оплачен', 409, { success: false, error: 'Счет уже оплачен', paid: true, receipt }));
    await flush();
    expect(actor.getSnapshot().hasTag('paid')).toBe(true);
    expect(actor.getSnapshot().context.receipt).toEqual(receipt);
    expect(effects).toEqual([]);
  });

  test('a 409 without a receipt (paid outside the checkout) is paid too, with no receipt', async () => {
    const { actor, loadBill } = startApp();
    loadBill.last.answer.reject(new ApiError('Счет уже оплачен', 409, { success: false, paid: true }));
    await flush();
    expect(actor.getSnapshot().hasTag('paid')).toBe(true);
    expect(actor.getSnapshot().context.receipt).toBeNull();
  });

  test('a 404, a cancelled or expired bill\'s 409, or a failure is the data error as before', async () => {
    for (const error of [new ApiError('Документ не найден', 404, null), new ApiError('Счет отменен', 409, { success: false, error: 'Счет отменен' }), new ApiError('Сбой', 500, null)]) {
      const { actor, loadBill, effects } = startApp();
      loadBill.last.answer.reject(error);
      await flush();
      expect(actor.getSnapshot().hasTag('error')).toBe(true);
      expect(effects).toEqual(['title']);
    }
  });
});
