/**
 * A bill ending without payment: cancelled by the merchant, or expired at its expiresAt. Each is a move of the bill's
 * chart, whose effects end its attempts the acquirer never heard of and queue the merchant's webhook, in one
 * transaction (moves.ts); the attempts at the acquirer are left for the acquirer to end.
 */
import { BillConflict, BillNotFound } from '../billing/bills';
import { billByOid, billsDueToExpire } from '../billing/queries';
import { billStatus } from '../billing/status';
import type { BillRow } from '../billing/tables';
import type { Store } from '../store/store';
import { moveBill } from './moves';
import { pendingAttemptsOfBill } from './queries';
import type { AttemptRow } from './tables';

/**
 * The merchant cancels an unpaid bill: it is closed, its attempts the acquirer never heard of declined,
 * `bill.cancelled` queued, all in one transaction. Cancelling a cancelled bill again answers it as it is; a paid or
 * expired one is a BillConflict. `atAcquirer`: the attempts the acquirer is still to settle.
 */
export async function cancelBill(store: Store, oid: string): Promise<{ bill: BillRow; atAcquirer: AttemptRow[] }> {
  return store.transaction(async (tx) => {
    const bill = await billByOid(tx, oid);
    if (!bill) throw new BillNotFound();
    const status = billStatus(bill, tx.now());
    if (status === 'cancelled') return { bill, atAcquirer: [] };
    if (status === 'paid' || status === 'handed_over') throw new BillConflict('bill_paid', 'The bill is paid: it cannot be cancelled');
    if (status === 'held') throw new BillConflict('bill_held', "The bill's payment is held: capture or release it first");
    if (status === 'expired') throw new BillConflict('bill_expired', 'The bill has expired: it cannot be cancelled');
    const cancelled = await moveBill(tx, oid, { type: 'merchant.cancelled' });
    if (cancelled.kind !== 'moved') throw new Error(`bill ${oid} refused to be cancelled (${cancelled.kind})`);
    // Those the acquirer heard of (register.do went out) are its to end.
    const atAcquirer = (await pendingAttemptsOfBill(tx, oid)).filter((attempt) => attempt.register_started_at !== null);
    return { bill: cancelled.row, atAcquirer };
  });
}

/**
 * The expiry sweep: closes the open bills whose expiresAt has come, declines their attempts the acquirer never heard
 * of and queues `bill.expired`, a transaction per bill; answers how many it closed. Safe to run in every process at once
 * (a bill closed or paid meanwhile is skipped).
 */
export async function expireDueBills(store: Store, limit = 100): Promise<number> {
  let closed = 0;
  for (const oid of await billsDueToExpire(store, limit)) {
    const done = await store.transaction(async (tx) => {
      const bill = await billByOid(tx, oid);
      if (!bill || billStatus(bill, tx.now()) !== 'expired' || bill.closed_as) return false;
      return (await moveBill(tx, oid, { type: 'deadline.passed' })).kind === 'moved';
    });
    if (done) closed += 1;
  }
  return closed;
}
