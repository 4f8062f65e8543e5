import { phoneOf } from '../services/pricing';
import { derive, paymentRequest, selectedType, type CheckoutContext, type CheckoutEvent } from './checkoutContext';
import { child, fromChunk, loadCodeStub, logicOf, startChild } from './chunks';
import type { codeFlowMachine } from './codeFlow';
import type { freeCallMachine } from './freeCall';
import type { offerMachine } from './offer';
import type { paymentMachine } from './payment';
import type { paymentStatusMachine } from './paymentStatus';
import type { signInMachine } from './signIn';
import { promiseStub } from './stub';

/** The checkout's children started from the logic their chunk brought (the form, the offer, paying, the free call). */
export const childStarters = {
  'start sign-in form': startChild<CheckoutContext, CheckoutEvent>(({ code }) => child('signIn', logicOf(code, 'signInForm').signIn, undefined)),
  'start offer': startChild<CheckoutContext, CheckoutEvent>((context) => child('offer', logicOf(context.code, 'paying').offer, { objectOID: context.bill.objectOID })),
  'start payment': startChild<CheckoutContext, CheckoutEvent>((context) =>
    child('payment', logicOf(context.code, 'paying').payment, {
      request: paymentRequest(context),
      code: selectedType(context)?.Code ?? null,
      closesWithPoints: derive.isCoveredByPoints(context),
      isDesktop: context.isDesktop,
    }),
  ),
  'start status polling': startChild<CheckoutContext, CheckoutEvent, { keepPollingWhenHidden: boolean }>((context, { keepPollingWhenHidden }) =>
    child('paymentStatus', logicOf(context.code, 'paying').paymentStatus, {
      transactionID: context.transactionID ?? '',
      billOID: context.bill.objectOID,
      keepPollingWhenHidden,
    }),
  ),
  // Reached from a resumed code screen, no code was sent from this page: the draft's phone, the one the code went to.
  'start free call': startChild<CheckoutContext, CheckoutEvent>((context) =>
    child('freeCall', logicOf(context.code, 'accountFlows').freeCall, { phone: context.sendSmsPhone || context.codeAskedFor?.phone || phoneOf(context.bill, context.user) }),
  ),
};

/** The checkout's actors: the e-mail check, the chunks' load, and its children by name. */
export const checkoutActors = {
    /** Resolves with the accepted e-mail; rejects when the server refuses it. */
    checkEmail: promiseStub<string, { email: string }>('checkEmail'),
    /** The chunks of code asked for, with their children's logic (chunks.ts). */
    loadCode: loadCodeStub,
    // The children, each started from the logic its chunk brought (chunks.ts); named here for their types, so that a
    // view reads `state.children.payment` as the payment machine's. The send-code flow runs once per code purpose
    // (codePurposeSteps.ts), each with what its right code unlocks.
    payment: fromChunk<typeof paymentMachine>('payment'),
    paymentStatus: fromChunk<typeof paymentStatusMachine>('paymentStatus'),
    offer: fromChunk<typeof offerMachine>('offer'),
    signIn: fromChunk<typeof signInMachine>('signIn'),
    freeCall: fromChunk<typeof freeCallMachine>('freeCall'),
    pointsCode: fromChunk<typeof codeFlowMachine>('pointsCode'),
    passwordCode: fromChunk<typeof codeFlowMachine>('passwordCode'),
    registrationCode: fromChunk<typeof codeFlowMachine>('registrationCode'),
};
