import { createActor, fromPromise, waitFor } from 'xstate';
import { checkoutMachine, type CheckoutInput } from '../../src/machines/checkout';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import { offerMachine, type OfferRequest } from '../../src/machines/offer';
import { paymentMachine } from '../../src/machines/payment';
import type { PaymentStatusInput, PaymentStatusOutput } from '../../src/machines/paymentStatus';
import { paymentStatusMachine } from '../../src/machines/paymentStatus';
import type { PaymentStatusResponse, PaymentUrlRequest, PaymentUrlResponse } from '../../src/services/types';
import { aBill } from '../fixtures/billBuilder';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeRequest } from '../fixtures/fakes';

export const billWithEmail = (overrides: Parameters<typeof aBill>[0] = {}) =>
  aBill({ objectOID: 'bill-1', ...overrides, info: { Email: 'payer@example.com', ...overrides.info } });

/** A checkout on choose-payment-type (once its code is here) with fake requests, for the payment screens. */
export async function checkoutAtChoose(input: Partial<CheckoutInput> = {}, { points = 0, reloaded = false } = {}) {
  const requestPaymentUrl = fakeRequest<PaymentUrlResponse, PaymentUrlRequest>();
  const fetchOffer = fakeRequest<string, OfferRequest>();
  const fetchStatus = fakeRequest<PaymentStatusResponse, PaymentStatusInput>();
  const checkEmail = fakeRequest<string, { email: string }>();
  const { loadCode } = codeFrom({
    paying: {
      offer: offerMachine.provide({ actors: { fetchOffer: fetchOffer.logic }, actions: { 'log error': () => undefined } }),
      paymentStatus: paymentStatusMachine.provide({
        actors: {
          fetchStatus: fetchStatus.logic,
          watchVisibility: fromPromise(async () => undefined) as never,
          watchConnection: fromPromise(async () => undefined) as never,
        },
        actions: { 'log poll failure': () => undefined },
      }),
      payment: paymentMachine.provide({
        actors: { requestPaymentUrl: requestPaymentUrl.logic, bankWidget: fromPromise<PaymentStatusOutput>(() => new Promise(() => undefined)) as never },
        actions: { 'go to url': () => undefined, 'log error': () => undefined },
      }),
    },
  });
  const actor = createActor(
    checkoutMachine.provide({
      actors: { checkEmail: checkEmail.logic, loadCode },
      // A page loaded again (`reloaded`, with input.resumePath): resuming is wired in, as main.tsx does then.
      actions: reloaded ? resumeAfterReload.actions : {},
      guards: reloaded ? resumeAfterReload.guards : {},
    }),
    { input: { bill: billWithEmail(), user: null, isDesktop: true, ...input } },
  ).start();
  // Points as a code confirmed for them applies them.
  if (points) actor.send({ type: 'code.confirmed', request: { purpose: 'use-points', phone: '79990000001', points } });
  actor.send({ type: 'checkout.continue' });
  await waitFor(actor, (state) => !state.hasTag('loading step'));
  return { actor, requestPaymentUrl, fetchOffer, fetchStatus, checkEmail };
}
