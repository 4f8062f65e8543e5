/**
 * How an attempt ends: the acquirer's word (or the server's own, for points that cover a bill) applied to the attempt,
 * its bill and the customer's points, in one transaction.
 */
import { billByOid, markBillPaid } from '../billing/queries';
import { billStatus } from '../billing/status';
import { addLedgerEntry, pointsBalance } from '../loyalty/ledger';
import { paymentEvent } from '../merchant/events';
import { recordPaymentFinished } from '../operations/metrics';
import type { Store } from '../store/store';
import { PaymentRefused } from './errors';
import { attemptByOrder, finishAttempt, paymentByOrder } from './queries';
import { automaticRefund, type AutomaticRefundReason } from './refunds';
import type { AttemptRow } from './tables';

/** The acquirer's word on an order, as the product reads it (from getOrderStatusExtended.do only). */
export type AcquirerOutcome =
  | { kind: 'deposited' }
  | { kind: 'declined'; reason: 'declined' | 'reversed' | 'expired' | 'amount-mismatch' | 'form-lost' | 'bill-closed' }
  | { kind: 'refunded' };

/**
 * Every change of an attempt's status happens here, in the caller's transaction (one place, so whatever must hear of a
 * change — the change feed, the merchant's webhooks — is added once). Exactly once: an attempt no longer
 * pending changes nothing. A deposit marks the bill paid and writes the points off in the same transaction; a deposit
 * on a bill already paid by another attempt (two tabs, card after fast payment), or whose points were spent meanwhile,
 * cannot be kept: the attempt becomes 'refunded' with its automatic refund, pending until the gateway has made it.
 */
export async function applyAcquirerOutcome(tx: Store, orderId: string, outcome: AcquirerOutcome): Promise<AttemptRow> {
  const attempt = await attemptByOrder(tx, orderId);
  if (!attempt) throw new PaymentRefused(404, 'Заказ не найден');
  if (attempt.status !== 'created') return attempt;
  const finished = await decide(tx, attempt, outcome);
  await paymentEvent(tx, finished); // the merchant's webhooks, queued in this same transaction
  await countFinished(tx, finished);
  return finished;
}

/** Counts the attempt's end for the metrics, once its transaction has committed (a retried try counts nothing). */
async function countFinished(tx: Store, finished: AttemptRow): Promise<void> {
  const status = finished.status;
  if (status === 'created') return;
  // No money moved: points alone paid (or were refused), whichever way to pay the attempt names.
  const method = finished.amount_kopecks === 0 ? 'points' : (await paymentByOrder(tx, finished.order_id))!.method;
  tx.afterCommit(() => recordPaymentFinished(method, status));
}

/** applyAcquirerOutcome's decision for a pending attempt, in its transaction. */
async function decide(tx: Store, attempt: AttemptRow, outcome: AcquirerOutcome): Promise<AttemptRow> {
  const orderId = attempt.order_id;
  if (outcome.kind === 'declined') return (await finishAttempt(tx, orderId, 'declined'))!;
  if (outcome.kind === 'refunded') return (await finishAttempt(tx, orderId, 'refunded'))!;

  const bill = (await billByOid(tx, attempt.bill_oid))!;
  // Money was taken for this attempt: when it cannot be this bill's payment, it goes back (never kept, never a second success).
  // (A points-only attempt took no money: it is simply declined.)
  const giveBack = async (why: AutomaticRefundReason) => {
    if (attempt.amount_kopecks === 0) return (await finishAttempt(tx, orderId, 'declined'))!;
    const refunded = (await finishAttempt(tx, orderId, 'refunded'))!;
    await automaticRefund(tx, refunded, why);
    return refunded;
  };
  // A bill paid by another attempt, or closed (cancelled, expired) meanwhile, takes no more money.
  const status = billStatus(bill, tx.now());
  if (status !== 'unpaid') return giveBack(status === 'paid' ? 'bill-paid' : 'bill-closed');
  if (attempt.points_used > 0) {
    const balance = bill.cust_no ? await pointsBalance(tx, bill.cust_no) : 0;
    // The balance may have been spent since the attempt began: refuse rather than go below zero.
    if (!bill.cust_no || balance < attempt.points_used) return giveBack('points-spent');
    await addLedgerEntry(tx, { cust_no: bill.cust_no, delta: -attempt.points_used, reason: 'payment', order_id: orderId });
  }
  const finished = (await finishAttempt(tx, orderId, 'success'))!;
  await markBillPaid(tx, bill.oid, orderId);
  return finished;
}
