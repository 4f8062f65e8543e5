import { phoneOf } from '../services/pricing';
import { derive, paymentRequest, selectedType, type CheckoutContext, type CheckoutEvent } from './checkoutContext';
import { child, logicOf, startChild } from './chunks';

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
