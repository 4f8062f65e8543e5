/**
 * How payments move the money's charts (server/lifecycle/): a payment attempt's, a refund's and a bill's, each through
 * the one compare-and-set writer, with the effects each chart names done here, in the move's transaction. This is where
 * the three meet (a payment pays its bill, a refund tells its payment, a bill closing ends its attempts), so it lives
 * with payments, which sees billing, the points and the merchant's webhooks.
 */
import { billByOid } from '../billing/queries';
import type { BillRow } from '../billing/tables';
import { paymentStatusOf, type AttemptEvent, type AttemptEffect, type AutomaticRefundReason } from '../lifecycle/attempt';
import type { BillEffect, BillEvent } from '../lifecycle/bill';
import { attemptLifecycle, billLifecycle, refundLifecycle } from '../lifecycle/lifecycles';
import type { RefundEffect, RefundEvent } from '../lifecycle/refund';
import { move, type EventOf, type Effects, type Facts } from '../lifecycle/writer';
import { addLedgerEntry } from '../loyalty/ledger';
import { billClosedEvent, billPaidEvent, billPartlyPaidEvent, excessRefundedEvent, paymentEvent, refundEvent } from '../merchant/events';
import { recordPaymentFinished } from '../operations/metrics';
import type { Store } from '../store/store';
import { insertClosingReceipt } from './closingReceiptQueries';
import { attemptsInStateOfBill, partsPaidOfBill, paymentByOrder } from './queries';
import { refundedOf } from './refundQueries';
import { automaticRefund, excessRefund, givePointsBack } from './refunds';

const attemptEffects: Effects<'payment_attempts', AttemptEvent, AttemptEffect> = {
  async 'write off the points'(tx, { row }) {
    if (row.points_used === 0) return;
    // The chart took this move only with the points there (the bill's customer's balance, read in this transaction).
    const bill = (await billByOid(tx, row.bill_oid))!;
    await addLedgerEntry(tx, { cust_no: bill.cust_no!, delta: -row.points_used, reason: 'payment', order_id: row.order_id });
  },

  /** The change feed, the merchant's webhook and the metrics hear of the attempt's new status. */
  async 'announce the status'(tx, { row }) {
    // The API's word for the state (a hold is stored as pending).
    const status = paymentStatusOf(row.state);
    if (status === 'created') return;
    await tx.publish({ kind: 'attempt-status', orderId: row.order_id, billOid: row.bill_oid, status });
    await paymentEvent(tx, row);
    // No money moved: points alone paid, whichever way to pay the attempt names.
    const method = row.amount_kopecks === 0 ? 'points' : (await paymentByOrder(tx, row.order_id))!.method;
    tx.afterCommit(() => recordPaymentFinished(method, status));
  },

  async 'mark the bill paid'(tx, { row }) {
    // This payment counts among the bill's successful ones already (its move is written): what remains is after it.
    // A bill without parts is paid by its one payment whatever it counts (a deposit captured for less, say): nothing
    // remains and nothing passes it.
    const left = async (bill: BillRow, tx: Store) => (bill.part_minimum_kopecks === null ? 0 : bill.sum_kopecks - (await partsPaidOfBill(tx, bill)));
    // A part more than remained (another tab paid some of it meanwhile): the bill never keeps more than its amount, so
    // what passes it goes back, a part of this payment (the points it spent stay on what the bill kept); written before
    // the bill moves, so what the merchant hears of the bill already leaves it out.
    const over = -(await left((await billByOid(tx, row.bill_oid))!, tx));
    if (over > 0) await excessRefund(tx, row, over);
    const paid = await moveBill(tx, row.bill_oid, async (bill, tx) => ({ type: 'payment.succeeded', orderId: row.order_id, remainingKopecks: Math.max(0, await left(bill, tx)) }));
    // The attempt's chart chose this from the bill read in this same transaction: a bill that refuses is a fault.
    if (paid.kind !== 'moved') throw new Error(`bill ${row.bill_oid} refused the payment ${row.order_id} (${paid.kind})`);
  },

  async 'refund it automatically'(tx, { row }, params) {
    await automaticRefund(tx, row, (params as { why: AutomaticRefundReason }).why);
  },

  async 'mark the bill held'(tx, { row }) {
    const held = await moveBill(tx, row.bill_oid, { type: 'payment.held', orderId: row.order_id });
    // A bill takes one hold: a second payment held for a bill held or paid already is a fault to look at.
    if (held.kind !== 'moved') throw new Error(`bill ${row.bill_oid} refused the hold of ${row.order_id} (${held.kind})`);
  },

  async 'reopen the bill'(tx, { row }) {
    // A hold let go at once (its bill no longer took it) never held the bill: another payment's hold keeps it held.
    const heldByAnother = [...(await attemptsInStateOfBill(tx, row.bill_oid, 'held')), ...(await attemptsInStateOfBill(tx, row.bill_oid, 'capturing'))].length > 0;
    if (heldByAnother) return;
    await moveBill(tx, row.bill_oid, { type: 'payment.released', orderId: row.order_id });
  },

  async 'raise the amount alert'(tx, { row, event }) {
    const paid = event.type === 'acquirer.paid' ? event.paidKopecks : null;
    // Never a success for money we did not ask for: support must look at it (the exchange is in the log).
    tx.afterCommit(() => tx.log(`ALERT amount mismatch on order ${row.order_id}: deposited ${paid}, expected ${row.amount_kopecks}`));
  },
};

const refundEffects: Effects<'refunds', RefundEvent, RefundEffect> = {
  'give the points back': (tx, { row }) => givePointsBack(tx, row),

  async 'tell the payment'(tx, { row }) {
    await moveAttempt(tx, row.order_id, async (attempt, tx) => ({
      type: 'refund.succeeded',
      givenBackKopecks: await refundedOf(tx, attempt.order_id),
      paidKopecks: attempt.amount_kopecks,
    }));
  },

  async 'tell the merchant'(tx, { row }) {
    // The excess of a part given back is a refunded payment to the merchant, as a payment its bill could not keep is.
    await excessRefundedEvent(tx, row);
    await refundEvent(tx, row);
  },
};

const billEffects: Effects<'bills', BillEvent, BillEffect> = {
  async 'tell the merchant it is partly paid'(tx, { row, event }) {
    if (event.type === 'payment.succeeded' && event.orderId) await billPartlyPaidEvent(tx, row, event.orderId);
  },

  async 'tell the merchant it is paid'(tx, { row, event }) {
    // A bill the sandbox seeds as paid has no payment to tell of.
    if (event.type === 'payment.succeeded' && event.orderId) await billPaidEvent(tx, row, event.orderId);
  },

  /**
   * A closing bill ends its attempts the acquirer never heard of (declined). Those at the acquirer are left for the
   * acquirer to end: ending them here would keep a payment made on the acquirer's form before its session ends. The
   * gateway settles them from the acquirer's word: unpaid, declined at the session's end; paid after the close, given
   * back (a closed bill takes no money).
   */
  async 'end the attempts the acquirer never heard of'(tx, { row }) {
    for (const attempt of await attemptsInStateOfBill(tx, row.oid, 'created')) await moveAttempt(tx, attempt.order_id, { type: 'bill.closed' });
  },

  'tell the merchant it closed': (tx, { row }) => billClosedEvent(tx, row),

  /**
   * The goods handed over: each order that took a prepayment gets its closing receipt's row, not yet sent (the
   * acquirer's fiscal API sends it once committed: acquirer/closingReceiptSender.ts).
   */
  async 'close the prepayments'(tx, { row, event }) {
    if (event.type !== 'goods.handedOver') return;
    for (const receipt of event.receipts) {
      await insertClosingReceipt(tx, { order_id: receipt.orderId, bill_oid: row.oid, state: 'unsent', amount_kopecks: receipt.amountKopecks, cart: receipt.cart, due_at: tx.now() });
    }
  },
};

/** Moves a payment attempt by its chart (lifecycle/attempt.ts), in the caller's transaction or one of its own. */
export const moveAttempt = (store: Store, orderId: string, event: EventOf<'payment_attempts', AttemptEvent>, facts?: Facts<'payment_attempts'>) =>
  move(store, attemptLifecycle, orderId, event, { effects: attemptEffects, ...(facts ? { facts } : {}) });

/** Moves a refund by its chart (lifecycle/refund.ts), in the caller's transaction or one of its own. */
export const moveRefund = (store: Store, refundId: string, event: EventOf<'refunds', RefundEvent>, facts?: Facts<'refunds'>) =>
  move(store, refundLifecycle, refundId, event, { effects: refundEffects, ...(facts ? { facts } : {}) });

/** Moves a bill by its chart (lifecycle/bill.ts), in the caller's transaction or one of its own. */
export const moveBill = (store: Store, oid: string, event: EventOf<'bills', BillEvent>, facts?: Facts<'bills'>) =>
  move(store, billLifecycle, oid, event, { effects: billEffects, ...(facts ? { facts } : {}) });
