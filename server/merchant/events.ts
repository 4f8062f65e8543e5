/**
 * What the merchant hears: the webhook events, queued in the outbox (outbox.ts) by the same transaction as the change
 * they tell of, delivered later by the worker (worker.ts). The money's charts call these as effects of their moves
 * (payments/moves.ts): an attempt's status, a bill paid or closed, a refund settled; the data is the merchant API's own
 * shapes (views.ts), so an event and the API never differ.
 */
import type { BillRow } from '../billing/tables';
import { paymentByOrder, paymentsOfBill } from '../payments/queries';
import { paymentStatusOf } from '../lifecycle/attempt';
import type { AttemptRow, ClosingReceiptRow, PaymentStatus, RefundRow } from '../payments/tables';
import type { Store } from '../store/store';
import { enqueueEvent } from './outbox';
import type { WebhookEventType } from './tables';
import { itemsOfRefund } from '../payments/refundQueries';
import { billMoneyOf, closingReceiptView, iso, money, paymentView, refundView, withDetails } from './views';

/** The event of each final status of an attempt. */
const paymentEventOf: Record<Exclude<PaymentStatus, 'created'>, WebhookEventType> = {
  held: 'payment.held',
  released: 'payment.released',
  success: 'payment.succeeded',
  declined: 'payment.declined',
  refunded: 'payment.refunded',
};

/** The payment as the merchant API shows it, in the caller's transaction. */
async function paymentNow(tx: Store, orderId: string) {
  const found = await paymentByOrder(tx, orderId);
  if (!found) return undefined;
  const [payment] = await withDetails(tx, [found]);
  return paymentView(payment!);
}

/**
 * Queues what an attempt's new status tells the merchant, in the caller's transaction: `payment.succeeded`,
 * `payment.declined` or `payment.refunded`. Called once per status change, right after the change is written (the
 * attempt chart's 'announce the status').
 */
export async function paymentEvent(tx: Store, attempt: AttemptRow): Promise<void> {
  const status = paymentStatusOf(attempt.state);
  if (status === 'created') return;
  const payment = await paymentNow(tx, attempt.order_id);
  if (!payment) return;
  // A released hold says why: the merchant released it, or its time ran out.
  const why = status === 'released' ? { reason: attempt.release_reason ?? 'expired' } : {};
  await enqueueEvent(tx, paymentEventOf[status], { objectOID: attempt.bill_oid, payment, ...why });
}

/** Queues `payment.hold_expiring` for a hold the server releases by itself soon (at its heldUntil). */
export async function holdExpiringEvent(tx: Store, attempt: AttemptRow): Promise<void> {
  const payment = await paymentNow(tx, attempt.order_id);
  if (payment) await enqueueEvent(tx, 'payment.hold_expiring', { objectOID: attempt.bill_oid, payment });
}

/** What the bill's payments have paid of it and what remains, as the bill's answer shows them, in the caller's transaction. */
async function billMoneyNow(tx: Store, bill: BillRow) {
  const money = billMoneyOf(bill, await withDetails(tx, await paymentsOfBill(tx, bill.oid)));
  return { paid: money.paid, remaining: money.remaining };
}

/**
 * Queues `bill.partially_paid` for a bill a payment `orderId` has paid a part of, something remaining, in the caller's
 * transaction.
 */
export async function billPartlyPaidEvent(tx: Store, bill: BillRow, orderId: string): Promise<void> {
  const payment = await paymentNow(tx, orderId);
  if (!payment) return;
  await enqueueEvent(tx, 'bill.partially_paid', { objectOID: bill.oid, status: 'partially_paid', amount: money(bill.sum_kopecks), ...(await billMoneyNow(tx, bill)), payment });
}

/** Queues `bill.paid` for a bill the payment `orderId` has just left nothing to pay of, in the caller's transaction. */
export async function billPaidEvent(tx: Store, bill: BillRow, orderId: string): Promise<void> {
  const payment = await paymentNow(tx, orderId);
  if (!payment) return;
  await enqueueEvent(tx, 'bill.paid', { objectOID: bill.oid, status: 'paid', amount: money(bill.sum_kopecks), ...(await billMoneyNow(tx, bill)), paidAt: iso(bill.paid_at), payment });
}

/** Queues `bill.cancelled` or `bill.expired` for a bill just closed, in the caller's transaction. */
export async function billClosedEvent(tx: Store, bill: BillRow): Promise<void> {
  if (!bill.closed_as) return;
  await enqueueEvent(tx, bill.closed_as === 'cancelled' ? 'bill.cancelled' : 'bill.expired', {
    objectOID: bill.oid,
    status: bill.closed_as,
    amount: money(bill.sum_kopecks),
    closedAt: iso(bill.closed_at),
  });
}

/**
 * Queues `payment.refunded` for the excess of a part given back (two tabs paying parts at once), in the caller's
 * transaction: the payment as it now stands, still `success` (its bill kept the rest), its `refunded` the excess. A
 * payment its bill could not keep at all told it on its move to `refunded`; a merchant's refund tells only its own event.
 */
export async function excessRefundedEvent(tx: Store, refund: RefundRow): Promise<void> {
  if (refund.status !== 'succeeded' || refund.kind !== 'automatic') return;
  const payment = await paymentNow(tx, refund.order_id);
  if (payment?.status !== 'success') return;
  await enqueueEvent(tx, 'payment.refunded', { objectOID: payment.objectOID, payment });
}

/**
 * Queues `refund.succeeded` or `refund.failed` for a refund just settled, in the caller's transaction: the refund and
 * the payment as it now stands (what it has given back).
 */
export async function refundEvent(tx: Store, refund: RefundRow): Promise<void> {
  if (refund.status === 'pending') return;
  const found = await paymentByOrder(tx, refund.order_id);
  if (!found) return;
  const [payment] = await withDetails(tx, [found]);
  await enqueueEvent(tx, refund.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed', {
    objectOID: found.bill_oid,
    refund: refundView(refund, await itemsOfRefund(tx, refund.id)),
    payment: paymentView(payment!),
  });
}

/**
 * What the server does about a failed closing receipt: sent again unchanged (retryReceipt), corrected and sent again
 * (doReceipt naming the receipt), or nothing more (it stays failed; its error says why).
 */
export type ReceiptNext = 'retried' | 'corrected' | 'none';

/**
 * Queues `receipt.registered` or `receipt.failed` for a bill's closing receipt, in the caller's transaction: the receipt
 * as the API shows it and, for a failure, the gateway's status, error and recommendation and what the server does next.
 */
export async function closingReceiptEvent(
  tx: Store,
  type: 'receipt.registered' | 'receipt.failed',
  row: ClosingReceiptRow,
  failure: { receiptStatus: number; message: string; recommendation: number | null } | null,
  next: ReceiptNext | null,
): Promise<void> {
  await enqueueEvent(tx, type, {
    objectOID: row.bill_oid,
    receipt: closingReceiptView(row),
    ...(failure ? { failure: { ...failure, next } } : {}),
  });
}
