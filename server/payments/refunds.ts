/**
 * Refunds of a payment, as rows: a payment has many, and what it has given back is what its succeeded ones add up to.
 * The merchant asks for one (all that is left, or a part: a buyer who withdraws often leaves a penalty behind); a
 * payment its bill could not keep (paid twice, paid after the bill closed) gets its automatic one, the same kind of row.
 * The acquirer gateway makes them (acquirer/refunder.ts) and settles them by the refund's chart (moves.ts), whose
 * effects give the points spent back in proportion (`givePointsBack`) and queue the merchant's webhook, in the
 * transaction of the change.
 */
import { paymentStatusOf } from '../lifecycle/attempt';
import { billByOid } from '../billing/queries';
import type { AutomaticRefundReason } from '../lifecycle/attempt';
import { addLedgerEntry } from '../loyalty/ledger';
import { sortableId } from '../platform/ids';
import type { Store } from '../store/store';
import { attemptByOrder, itemsOfAttempt } from './queries';
import { claimedByRefunds, insertRefund, insertRefundItems, pointsReturnedFor, refundedOf, returnedByPosition } from './refundQueries';
import { namedRefundItems, spreadRefund, type FieldProblem, type RefundItemInput } from './refundPositions';
import type { AttemptRow, RefundItemRow, RefundRow } from './tables';

/** Why a refund was refused, in the merchant API's terms. */
export class RefundRefused extends Error {
  constructor(
    readonly kind: 'not_found' | 'payment_not_refundable' | 'payment_held' | 'refund_exceeds_remaining' | 'invalid',
    message: string,
    readonly fields?: FieldProblem[],
  ) {
    super(message);
  }
}

const invalid = (fields: FieldProblem[]) => new RefundRefused('invalid', 'The request has invalid fields', fields);

export interface RefundRequest {
  orderId: string;
  /** null: all that is left (or what the named positions add up to). */
  amountKopecks: number | null;
  reason: string | null;
  /** The positions returned, for the refund receipt; null: spread over the payment's positions. */
  items: RefundItemInput[] | null;
  idempotencyKey: string | null;
}

/** A refund's id sorts by when it was made, so a payment's refunds list in the order asked. */
const newRefundId = (tx: Store) => sortableId('rf', tx.now());
const roubles = (kopecks: number) => (kopecks / 100).toFixed(2);

/** The refund's positions where the payment's order carried a fiscal receipt (none otherwise). */
async function positionsReturned(tx: Store, attempt: AttemptRow, refundId: string, amount: number, named: RefundItemRow[] | null): Promise<RefundItemRow[]> {
  if (named) return named;
  if (attempt.receipt_tax_system === null) return [];
  return spreadRefund(refundId, await itemsOfAttempt(tx, attempt.order_id), await returnedByPosition(tx, attempt.order_id), amount);
}

/**
 * The merchant's refund of a successful payment, pending until the acquirer's word, in the caller's transaction. What
 * the payment's refunds claim (pending and succeeded) never passes what was paid: the check and the row are one
 * transaction, serialised on both engines, so concurrent refunds cannot each take the same remainder.
 */
export async function createRefund(tx: Store, request: RefundRequest): Promise<RefundRow> {
  const attempt = await attemptByOrder(tx, request.orderId);
  if (!attempt) throw new RefundRefused('not_found', 'No payment with this orderId');
  // A hold costs nothing to let go: release it, rather than capture and refund it.
  if (paymentStatusOf(attempt.state) === 'held') throw new RefundRefused('payment_held', 'The payment is held, not taken: release it instead (POST /payments/{orderId}/release)');
  if (attempt.status !== 'success') throw new RefundRefused('payment_not_refundable', `The payment is ${attempt.status}: only a successful payment can be refunded`);
  if (attempt.amount_kopecks === 0 || !attempt.acquirer_order_id) {
    throw new RefundRefused('payment_not_refundable', 'Points alone paid this bill: no money was taken, so none can go back (credit the points with POST /customers/{custNo}/points)');
  }
  if (request.amountKopecks !== null && request.amountKopecks <= 0) throw invalid([{ field: 'amount.value', message: 'must be more than 0.00' }]);
  const id = newRefundId(tx);
  let named: RefundItemRow[] | null = null;
  if (request.items) {
    const items = attempt.receipt_tax_system === null ? [] : await itemsOfAttempt(tx, attempt.order_id);
    if (items.length === 0) throw invalid([{ field: 'items', message: "the payment's order carried no fiscal receipt: it has no positions to name" }]);
    const checked = namedRefundItems(id, items, await returnedByPosition(tx, attempt.order_id), request.items);
    if (checked.problems.length > 0) throw invalid(checked.problems);
    named = checked.rows;
  }
  const namedTotal = named?.reduce((sum, item) => sum + item.amount_kopecks, 0) ?? null;
  const remaining = attempt.amount_kopecks - (await claimedByRefunds(tx, attempt.order_id));
  const amount = request.amountKopecks ?? namedTotal ?? remaining;
  if (namedTotal !== null && namedTotal !== amount) {
    throw invalid([{ field: 'items', message: `the positions add up to ${roubles(namedTotal)}, not to amount.value ${roubles(amount)}` }]);
  }
  if (remaining <= 0) throw new RefundRefused('refund_exceeds_remaining', 'Everything paid has been refunded already, or is being refunded');
  if (amount > remaining) {
    throw new RefundRefused('refund_exceeds_remaining', `${roubles(amount)} is more than remains to refund of this payment: ${roubles(remaining)}`);
  }
  const refund = await insertRefund(tx, { id, order_id: attempt.order_id, amount_kopecks: amount, reason: request.reason, kind: 'merchant', idempotency_key: request.idempotencyKey });
  await insertRefundItems(tx, await positionsReturned(tx, attempt, id, amount, named));
  return refund;
}

/**
 * What of a payment can still be refunded now (kopecks): nothing for a payment not successful or paid by points alone,
 * else what its refunds have not claimed. createRefund refuses exactly when this is 0 (and any more than this); the
 * desk offers a refund only where it is more.
 */
export async function refundableOf(store: Store, attempt: AttemptRow): Promise<number> {
  if (attempt.status !== 'success' || attempt.amount_kopecks === 0 || !attempt.acquirer_order_id) return 0;
  return Math.max(0, attempt.amount_kopecks - (await claimedByRefunds(store, attempt.order_id)));
}

/** Why a bill could not keep a payment, as the refund's reason says it. */
const AUTOMATIC_REASONS: Record<AutomaticRefundReason, string> = {
  'bill-paid': 'The bill was already paid by another payment',
  'bill-closed': 'The bill was closed (cancelled or expired) before this payment came',
  'points-spent': 'The points this payment was to spend were spent meanwhile',
};
export type { AutomaticRefundReason };

/** Why a part of a bill in parts was given back in part: more than remained once another part was paid meanwhile. */
const PART_OVER_REMAINING = 'The part was more than remained to pay of the bill: another payment paid some of it meanwhile';

/**
 * The automatic refund of a payment its bill could not keep (already paid by another, or closed meanwhile): all of
 * it, pending until the gateway has made it; in the caller's transaction (the attempt's move to givingBack, moves.ts).
 */
export async function automaticRefund(tx: Store, attempt: AttemptRow, why: AutomaticRefundReason): Promise<RefundRow> {
  return refundAutomatically(tx, attempt, attempt.amount_kopecks, AUTOMATIC_REASONS[why]);
}

/**
 * The automatic refund of what a part paid past what remained of its bill (two tabs paying parts at once): the bill
 * keeps the payment, this gives back `over` kopecks of its money (never more than the money it took), pending until
 * the gateway has made it; in the caller's transaction (the payment marking its bill paid, moves.ts).
 */
export const excessRefund = (tx: Store, attempt: AttemptRow, over: number): Promise<RefundRow> =>
  refundAutomatically(tx, attempt, Math.min(over, attempt.amount_kopecks), PART_OVER_REMAINING);

async function refundAutomatically(tx: Store, attempt: AttemptRow, amount: number, reason: string): Promise<RefundRow> {
  const id = newRefundId(tx);
  const refund = await insertRefund(tx, { id, order_id: attempt.order_id, amount_kopecks: amount, reason, kind: 'automatic', idempotency_key: null });
  await insertRefundItems(tx, await positionsReturned(tx, attempt, id, amount, null));
  return refund;
}

/**
 * The points a refund that succeeded gives back (the refund chart's effect), in the caller's transaction: in proportion
 * to the money given back so far, rounded down, less what earlier refunds gave; all that are left once the whole
 * payment is given back. Only points a successful payment wrote off (an attempt refunded automatically never wrote any
 * off).
 */
export async function givePointsBack(tx: Store, refund: RefundRow): Promise<void> {
  const attempt = (await attemptByOrder(tx, refund.order_id))!;
  // The excess of a part given back automatically leaves the points on what the bill kept of that part.
  if (attempt.status !== 'success' || attempt.points_used === 0 || refund.kind === 'automatic') return;
  const bill = await billByOid(tx, attempt.bill_oid);
  if (!bill?.cust_no) return;
  const refunded = await refundedOf(tx, attempt.order_id);
  // BigInt: points times kopecks may pass 2^53.
  const due = refunded >= attempt.amount_kopecks ? attempt.points_used : Number((BigInt(attempt.points_used) * BigInt(refunded)) / BigInt(attempt.amount_kopecks));
  const back = due - (await pointsReturnedFor(tx, attempt.order_id));
  if (back > 0) await addLedgerEntry(tx, { cust_no: bill.cust_no, delta: back, reason: 'refund', order_id: null, refund_id: refund.id });
}
