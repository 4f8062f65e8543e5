/**
 * How an attempt ends: the acquirer's word (or the server's own, for points that cover a bill) given to the attempt's
 * chart, with the facts its guards decide by, read in the caller's transaction: the bill's status and the customer's
 * points. The chart chooses (paid, given back, declined, expired) and its effects follow (moves.ts): the points written
 * off, the bill paid, the automatic refund, the merchant's webhooks.
 */
import { POINT } from '../../src/services/rules/pricing';
import { billByOid } from '../billing/queries';
import { billStatus } from '../billing/status';
import type { AttemptEvent } from '../lifecycle/attempt';
import type { Facts } from '../lifecycle/writer';
import { pointsBalance } from '../loyalty/ledger';
import type { Store } from '../store/store';
import { PaymentRefused } from './errors';
import { recordCapturedItems } from './holds';
import { moveAttempt } from './moves';
import { attemptByOrder, partOf } from './queries';
import type { AttemptRow } from './tables';

/** The acquirer's word on an attempt's order as the gateway reads it (the deposit with the amount it took), or Pay's. */
export type AcquirerOutcome =
  | { type: 'acquirer.paid'; paidKopecks: number }
  | { type: 'acquirer.held' }
  | Extract<
      AttemptEvent,
      { type: 'acquirer.declined' | 'acquirer.refunded' | 'session.expired' | 'form.lost' | 'points.covered' | 'acquirer.captured' | 'acquirer.released' }
    >;

/** The attempt's event for a deposit: what the acquirer took, and the bill and points as they now stand. */
async function paidEvent(tx: Store, attempt: AttemptRow, paidKopecks: number): Promise<AttemptEvent> {
  const bill = (await billByOid(tx, attempt.bill_oid))!;
  const status = billStatus(bill, tx.now());
  // A part of a bill paid by two tabs at once may be more than now remains: the bill keeps what remains and gives the
  // rest back (marking the bill paid, moves.ts), so a partly paid bill takes it as an unpaid one does.
  // The balance may have been spent since the attempt began: a payment never takes it below zero.
  const pointsThere = attempt.points_used === 0 || (bill.cust_no !== null && (await pointsBalance(tx, bill.cust_no)) >= attempt.points_used);
  return { type: 'acquirer.paid', paidKopecks, askedKopecks: attempt.amount_kopecks, bill: status === 'unpaid' || status === 'partially_paid' ? 'unpaid' : status === 'paid' || status === 'handed_over' ? 'paid' : 'closed', pointsThere };
}

/**
 * What a capture of `captured` kopecks takes of the bill: the money less the fee, with the points, never more than the
 * part the hold was for (a capture for less lets the rest of it go, so the bill is paid only what was taken).
 */
export function partCaptured(attempt: AttemptRow, captured: number): number {
  return Math.min(partOf(attempt), Math.max(0, captured - attempt.commission_kopecks) + attempt.points_used * POINT);
}

/** Whether the attempt's bill takes a hold now: open, neither paid nor held by another payment, closed or past its deadline. */
async function billOpenForHold(tx: Store, attempt: AttemptRow): Promise<boolean> {
  const status = billStatus((await billByOid(tx, attempt.bill_oid))!, tx.now());
  return status === 'unpaid';
}

/**
 * Gives the attempt's chart the acquirer's word, in the caller's transaction (or one of its own), with `facts` of the
 * order to keep with the move (how it ended: the card, the action code). Once: an attempt that no longer waits for that
 * word refuses it (nothing written). Answers the attempt as it now is.
 */
export async function applyAcquirerOutcome(store: Store, orderId: string, outcome: AcquirerOutcome, facts?: Facts<'payment_attempts'>): Promise<AttemptRow> {
  const moved = await store.transaction(async (tx) => {
    if (outcome.type === 'acquirer.paid') return moveAttempt(tx, orderId, (attempt, tx) => paidEvent(tx, attempt, outcome.paidKopecks), facts);
    if (outcome.type === 'acquirer.held') {
      // A hold for a bill that no longer takes one (expired, cancelled, paid or held meanwhile) is let go at once: the
      // bill keeps no money, and the acquirer is told to release it (the gateway sends it).
      const attempt = await attemptByOrder(tx, orderId);
      const billOpen = attempt ? await billOpenForHold(tx, attempt) : true;
      const letGo = attempt?.state === 'registered' && !billOpen;
      return moveAttempt(tx, orderId, { type: 'acquirer.held', billOpen }, letGo ? { ...facts, release_reason: 'expired' } : facts);
    }
    if (outcome.type !== 'acquirer.captured') return moveAttempt(tx, orderId, outcome, facts);
    // A capture: the payment's amount is what was taken, its part of the bill what that pays of it, its positions those
    // taken (its receipt's), in the same move.
    const attempt = await attemptByOrder(tx, orderId);
    const part = attempt ? { part_kopecks: partCaptured(attempt, outcome.capturedKopecks) } : {};
    const captured = await moveAttempt(tx, orderId, outcome, { ...facts, amount_kopecks: outcome.capturedKopecks, ...part });
    if (captured.kind === 'moved') await recordCapturedItems(tx, orderId, outcome.capturedKopecks);
    return captured;
  });
  if (moved.kind === 'missing') throw new PaymentRefused(404, 'Заказ не найден');
  return moved.row;
}
