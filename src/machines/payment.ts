import { assign, setup, type DoneActorEvent, type DoneStateEvent, type ErrorActorEvent } from 'xstate';
import { closedAsOf } from '../services/rules/billData';
import { paymentKindOf } from '../services/rules/paymentKinds';
import type { PaymentTypeCode, PaymentUrlRequest, PaymentUrlResponse } from '../services/types';
import { bankWidgetMachine, type BankWidgetOutput } from './bankWidget';
import { logErrorStub, notProvided, promiseStub } from './stub';

/** What went wrong paying; the choose-payment-type step words it from the catalogue. */
export type PaymentProblem = 'no payment url' | 'close with points failed' | 'bill expired';

export interface PaymentInput {
  /** Pay's request: the bill, the chosen type, the points, the receipt e-mail, the user. */
  request: PaymentUrlRequest;
  /** The chosen way to pay; null when none is (points cover the bill). */
  code: PaymentTypeCode | null;
  /** Points pay the whole bill: the request closes it with no payment to make. */
  closesWithPoints: boolean;
  /** Desktop (the widget's overlay) or phone (the widget's page). */
  isDesktop: boolean;
}

/** How paying ended, for the checkout to show. */
export type PaymentOutput =
  /** The browser is on its way: to the card or bank form, to the widget's return URL, to the page of a bill points closed. */
  | { outcome: 'left' }
  /** A fast payment's QR and bank-app link, to show while its status is polled. */
  | { outcome: 'fast payment'; transactionID: string | null; formUrl: string | null; qrSrc: string | null }
  /** Nothing paid: the step says why, or nothing when the payer closed the bank-app pay widget; choosing again. */
  | { outcome: 'not paid'; problem: PaymentProblem | null }
  /** A stale tab: the bill was paid meanwhile (in another tab, or by another payer). */
  | { outcome: 'already paid' };

export interface PaymentContext extends PaymentInput {
  /** The server's answer to Pay, kept for the bank-app pay widget and the fast payment's QR. */
  response: PaymentUrlResponse | null;
  problem: PaymentProblem | null;
}

const kindOf = (context: PaymentContext) => (context.code ? paymentKindOf(context.code) : null);
const answered = ({ event }: { event: DoneActorEvent<PaymentUrlResponse> }) => ({ response: event.output });
/**
 * What failed: the bill's deadline passed (the server refused it as expired: no other way to pay can help), else worded
 * by what Pay was for, closing the bill with points or a payment.
 */
const isExpiredRefusal = (error: unknown) => closedAsOf((error as { body?: unknown } | null)?.body ?? null) === 'expired';
const problemOf = ({ context, event }: { context: PaymentContext; event: ErrorActorEvent }): PaymentProblem => {
  if (isExpiredRefusal(event.error)) return 'bill expired';
  return context.closesWithPoints ? 'close with points failed' : 'no payment url';
};
/** What to log of Pay's failure: an expired bill's refusal is the bill's state, not a fault, so nothing (null). */
const faultOf = ({ event }: { event: ErrorActorEvent }) => ({ error: isExpiredRefusal(event.error) ? null : event.error });

/**
 * Paying, once the payer pressed Pay with everything in order: asks the server for the payment and follows its answer
 * by the kind of the way to pay (rules/paymentKinds.ts). A card or the bank's form: the browser goes there. Bank-app
 * pay: the bank's widget (bankWidget). Fast payment: the QR comes back to the checkout, which shows it and polls.
 * Points covering the bill: the same request closes it, and the browser goes to the bill's success page. Each way
 * needs its own address in the answer; one missing is a problem the step shows. A 409 says the bill was paid meanwhile.
 */
export const paymentMachine = setup({
  types: {
    input: {} as PaymentInput,
    context: {} as PaymentContext,
    output: {} as PaymentOutput,
    tags: {} as 'busy',
    children: {} as { bankWidget: 'bankWidget' },
  },
  actors: {
    requestPaymentUrl: promiseStub<PaymentUrlResponse, PaymentUrlRequest>('requestPaymentUrl'),
    bankWidget: bankWidgetMachine,
  },
  actions: {
    /** Sends the browser to another page (acquirer form, bank app, the bill's success page). */
    'go to url': (_, _params: { url: string }) => notProvided('go to url'),
    'log error': logErrorStub,
    'remember answer': assign((_, params: { response: PaymentUrlResponse }) => params),
    fail: assign((_, problem: PaymentProblem) => ({ problem })),
  },
  guards: {
    'closes with points': ({ context }) => context.closesWithPoints,
    'is closed by points': ({ context }, params: { response: PaymentUrlResponse }) => context.closesWithPoints && params.response.isClosedWithoutProcessing === true,
    /** The server's 409 to a payment request: the bill was paid meanwhile (in another tab, or by another payer). */
    'is bill already paid': (_, params: { error: unknown }) => (params.error as { status?: number } | null)?.status === 409,
    // Each way to pay needs its own address: the card form, the widget's invoice, or the bank-app link and QR.
    'has no payment url': ({ context }, params: { response: PaymentUrlResponse }) => {
      const info = params.response.info;
      if (!info?.orderId) return true;
      if (kindOf(context) === 'redirect') return !info.formUrl;
      if (kindOf(context) === 'bank-app pay') return !info.bankInvoiceId;
      return !info.data?.payload || !info.data.qrcId;
    },
    'is card or direct bank': ({ context }) => kindOf(context) === 'redirect',
    'is bank-app pay': ({ context }) => kindOf(context) === 'bank-app pay',
    'is widget closed': (_, params: { output: BankWidgetOutput }) => params.output.result === 'closed',
  },
}).createMachine({
  id: 'payment',
  description: 'Pay: the payment request, then the card form, the bank-app pay widget or the fast-payment QR.',
  context: ({ input }) => ({ ...input, response: null, problem: null }),
  initial: 'requestingPaymentUrl',
  states: {
    requestingPaymentUrl: {
      tags: 'busy',
      invoke: {
        src: 'requestPaymentUrl',
        input: ({ context }) => context.request,
        onDone: [
          {
            guard: { type: 'is closed by points', params: answered },
            target: 'left',
            actions: {
              type: 'go to url',
              params: ({ context, event }) => ({
                url: `/success?withoutProcessing=1&billOid=${encodeURIComponent(context.request.objectOID)}&orderId=${encodeURIComponent(event.output.info?.orderId ?? '')}`,
              }),
            },
          },
          { guard: 'closes with points', target: 'failed', actions: { type: 'fail', params: 'close with points failed' } },
          { guard: { type: 'has no payment url', params: answered }, target: 'failed', actions: { type: 'fail', params: 'no payment url' } },
          {
            guard: 'is card or direct bank',
            target: 'left',
            actions: { type: 'go to url', params: ({ event }) => ({ url: event.output.info!.formUrl! }) },
          },
          { guard: 'is bank-app pay', target: 'bankWidget', actions: { type: 'remember answer', params: answered } },
          // Fast payment: the checkout shows the QR and the bank-app link.
          { target: 'fastPayment', actions: { type: 'remember answer', params: answered } },
        ],
        onError: [
          { guard: { type: 'is bill already paid', params: ({ event }) => ({ error: event.error }) }, target: 'alreadyPaid' },
          { target: 'failed', actions: [{ type: 'log error', params: faultOf }, { type: 'fail', params: problemOf }] },
        ],
      },
    },
    bankWidget: {
      tags: 'busy',
      // The widget machine turns every failure of its own (no overlay, time-out, widget.error) into its `fail`.
      invoke: {
        id: 'bankWidget',
        src: 'bankWidget',
        input: ({ context }) => ({
          code: context.code ?? 'SberPaySite',
          bankInvoiceId: context.response?.info?.bankInvoiceId ?? '',
          orderId: context.response?.info?.orderId ?? '',
          billOid: context.request.objectOID,
          isDesktop: context.isDesktop,
        }),
        // The widget itself sends the browser to the success or fail URL; a closed widget lets the payer choose again.
        onDone: [{ guard: { type: 'is widget closed', params: ({ event }) => ({ output: event.output }) }, target: 'widgetClosed' }, { target: 'left' }],
      },
    },
    left: {
      type: 'final',
      description: 'The browser is on its way to where the payment goes on.',
      output: (): PaymentOutput => ({ outcome: 'left' }),
    },
    fastPayment: { type: 'final', output: ({ context }) => fastPaymentOf(context.response!) },
    widgetClosed: { type: 'final', output: (): PaymentOutput => ({ outcome: 'not paid', problem: null }) },
    failed: { type: 'final', output: ({ context }): PaymentOutput => ({ outcome: 'not paid', problem: context.problem }) },
    alreadyPaid: { type: 'final', output: (): PaymentOutput => ({ outcome: 'already paid' }) },
  },
  // The machine ends in one of its final states, whose output says how.
  output: ({ event }) => (event as DoneStateEvent<PaymentOutput>).output,
});

/** The fast payment's QR (a PNG in base64), its bank-app link and the transaction its status is polled by. */
function fastPaymentOf(response: PaymentUrlResponse): PaymentOutput {
  const content = response.info?.data?.image?.content;
  return {
    outcome: 'fast payment',
    formUrl: response.info?.data?.payload ?? null,
    transactionID: response.info?.data?.qrcId ?? response.info?.orderId ?? null,
    qrSrc: content ? `data:image/png;base64,${content}` : null,
  };
}
