/**
 * The events of each money chart as its model takes them: every event, once for each kind its guards tell apart (the
 * facts an adapter then makes true on the server). The model tests walk paths of these; `npm run inspect:money` plays
 * them in the Stately inspector.
 */
import type { AttemptEvent } from '../../../server/lifecycle/attempt';
import type { BillEvent } from '../../../server/lifecycle/bill';
import type { RefundEvent } from '../../../server/lifecycle/refund';
import type { Sample } from './model';

const paid = (facts: Partial<Extract<AttemptEvent, { type: 'acquirer.paid' }>>, label: string): Sample<AttemptEvent> => ({
  event: { type: 'acquirer.paid', paidKopecks: 100, askedKopecks: 100, bill: 'unpaid', pointsThere: true, ...facts },
  label,
});

/** The acquirer's hold, for a bill that no longer takes it (expired, cancelled or paid while the payer was on the form). */
export const heldForABillNotOpen: Sample<AttemptEvent> = { event: { type: 'acquirer.held', billOpen: false }, label: 'acquirer.held (bill not open)' };

export const attemptSamples: Sample<AttemptEvent>[] = [
  { event: { type: 'register.sent' }, label: 'register.sent' },
  { event: { type: 'acquirer.registered' }, label: 'acquirer.registered' },
  { event: { type: 'form.lost' }, label: 'form.lost' },
  { event: { type: 'bill.closed' }, label: 'bill.closed' },
  { event: { type: 'points.covered' }, label: 'points.covered' },
  paid({}, 'acquirer.paid'),
  paid({ paidKopecks: 1 }, 'acquirer.paid (another amount)'),
  paid({ bill: 'paid' }, 'acquirer.paid (bill paid already)'),
  paid({ bill: 'closed' }, 'acquirer.paid (bill closed)'),
  paid({ pointsThere: false }, 'acquirer.paid (points spent)'),
  { event: { type: 'acquirer.declined', reason: 'declined' }, label: 'acquirer.declined' },
  { event: { type: 'acquirer.declined', reason: 'reversed' }, label: 'acquirer.declined (reversed)' },
  { event: { type: 'acquirer.refunded' }, label: 'acquirer.refunded' },
  { event: { type: 'session.expired' }, label: 'session.expired' },
  { event: { type: 'acquirer.held', billOpen: true }, label: 'acquirer.held' },
  { event: { type: 'capture.sent' }, label: 'capture.sent' },
  { event: { type: 'release.sent', reason: 'merchant' }, label: 'release.sent' },
  { event: { type: 'acquirer.captured', capturedKopecks: 100 }, label: 'acquirer.captured' },
  { event: { type: 'acquirer.released', reason: 'merchant' }, label: 'acquirer.released' },
  heldForABillNotOpen,
  { event: { type: 'refund.succeeded', givenBackKopecks: 30, paidKopecks: 100 }, label: 'refund.succeeded (a part)' },
  { event: { type: 'refund.succeeded', givenBackKopecks: 100, paidKopecks: 100 }, label: 'refund.succeeded (the rest)' },
];

/**
 * What the server never does although the attempt's chart would take it: the gateway gives the acquirer's word on an
 * order it knows (an order found under our order number becomes the attempt's first: acquirer.registered); only "no
 * such order" after the session (session.expired) reaches an attempt still registering. An automatic refund gives all
 * of it back, never a part.
 */
export const attemptNever = (state: string, event: AttemptEvent) =>
  (state === 'registering' && event.type.startsWith('acquirer.') && event.type !== 'acquirer.registered') ||
  // A hold for a bill no longer open is let go at once (its reverse.do sent with the move), so no path of the server
  // leaves it releasing: its paths are walked whole (attempt.test.ts), not made here.
  (event.type === 'acquirer.held' && !event.billOpen) ||
  (state === 'givingBack' && event.type === 'refund.succeeded' && event.givenBackKopecks < event.paidKopecks);

export const refundSamples: Sample<RefundEvent>[] = [
  { event: { type: 'refund.sent' }, label: 'refund.sent' },
  { event: { type: 'acquirer.refunded' }, label: 'acquirer.refunded' },
  { event: { type: 'acquirer.refused' }, label: 'acquirer.refused' },
  { event: { type: 'lostAnswer.seen' }, label: 'lostAnswer.seen' },
  { event: { type: 'lostAnswer.unseen' }, label: 'lostAnswer.unseen' },
];

export const billSamples: Sample<BillEvent>[] = [
  { event: { type: 'payment.succeeded', orderId: 'order', remainingKopecks: 0 }, label: 'payment.succeeded' },
  { event: { type: 'payment.succeeded', orderId: 'order', remainingKopecks: 100 }, label: 'payment.succeeded (a part)' },
  { event: { type: 'payment.held', orderId: 'order' }, label: 'payment.held' },
  { event: { type: 'payment.released', orderId: 'order' }, label: 'payment.released' },
  { event: { type: 'merchant.cancelled' }, label: 'merchant.cancelled' },
  { event: { type: 'deadline.passed' }, label: 'deadline.passed' },
  { event: { type: 'goods.handedOver', at: 0, receipts: [] }, label: 'goods.handedOver' },
];
