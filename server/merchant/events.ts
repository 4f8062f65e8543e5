/**
 * What the merchant hears (issue 14): the webhook events, queued in the outbox by the same transaction as the change
 * they tell of (the store's `enqueueEvent`), delivered later by the worker (webhooks/worker.ts). The merchant API's
 * JSON shapes of bills and payments live here too, so an event's data and the API's answer never differ.
 */
import { formatMoney } from '../platform/money';
import type { AttemptRow, AttemptWithMethod, BillRow, PaymentStatus, Store, WebhookEventType } from '../store/store';

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'bill.paid',
  'bill.cancelled',
  'bill.expired',
  'payment.succeeded',
  'payment.declined',
  'payment.refunded',
];

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
export const money = (kopecks: number) => ({ value: formatMoney(kopecks), currency: 'RUB' as const });

/** A payment as the merchant API shows it. */
export function paymentView(attempt: AttemptWithMethod) {
  return {
    orderId: attempt.order_id,
    objectOID: attempt.bill_oid,
    method: attempt.method,
    amount: money(attempt.amount_kopecks),
    commission: money(attempt.commission_kopecks),
    pointsUsed: attempt.points_used,
    status: attempt.status,
    receiptEmail: attempt.email,
    createdAt: iso(attempt.created_at)!,
    updatedAt: iso(attempt.updated_at)!,
  };
}

/** The event of each final status of an attempt. */
const paymentEventOf: Record<Exclude<PaymentStatus, 'created'>, WebhookEventType> = {
  success: 'payment.succeeded',
  declined: 'payment.declined',
  refunded: 'payment.refunded',
};

/**
 * Queues what an attempt's new status tells the merchant, in the caller's transaction: `payment.succeeded`,
 * `payment.declined` or `payment.refunded`, and `bill.paid` when this attempt paid its bill. Call it once per status
 * change, right after the change is written (payments.ts applyAcquirerOutcome, the one place an attempt's status changes).
 */
export async function paymentEvent(tx: Store, attempt: AttemptRow): Promise<void> {
  const status = attempt.status;
  if (status === 'created') return;
  const payment = await tx.paymentByOrder(attempt.order_id);
  if (!payment) return;
  await tx.enqueueEvent(paymentEventOf[status], { objectOID: attempt.bill_oid, payment: paymentView(payment) });
  if (status !== 'success') return;
  const bill = await tx.billByOid(attempt.bill_oid);
  if (bill?.status === 'paid' && bill.paid_order_id === attempt.order_id) {
    await tx.enqueueEvent('bill.paid', {
      objectOID: bill.oid,
      status: 'paid',
      amount: money(bill.sum_kopecks),
      paidAt: iso(bill.paid_at),
      payment: paymentView(payment),
    });
  }
}

/** Queues `bill.cancelled` or `bill.expired` for a bill just closed, in the caller's transaction. */
export async function billClosedEvent(tx: Store, bill: BillRow): Promise<void> {
  if (!bill.closed_as) return;
  await tx.enqueueEvent(bill.closed_as === 'cancelled' ? 'bill.cancelled' : 'bill.expired', {
    objectOID: bill.oid,
    status: bill.closed_as,
    amount: money(bill.sum_kopecks),
    closedAt: iso(bill.closed_at),
  });
}
