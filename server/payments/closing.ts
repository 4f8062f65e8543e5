/**
 * A bill ending without payment: cancelled by the merchant, or expired at its expiresAt. Both close the bill and end
 * its pending attempts in one transaction, and queue the merchant's webhook; this is where billing's rule (the bill
 * closes) and payments' (its attempts end) meet, so it lives with payments, which sees both.
 */
import { BillConflict, BillNotFound } from '../billing/bills';
import { billByOid, billsDueToExpire, closeBill } from '../billing/queries';
import { billStatus } from '../billing/status';
import type { BillRow } from '../billing/tables';
import { billClosedEvent } from '../merchant/events';
import type { Store } from '../store/store';
import { applyAcquirerOutcome } from './outcome';
import { pendingAttemptsOfBill } from './queries';
import type { AttemptRow } from './tables';

/**
 * Ends a closing bill's pending attempts that the acquirer never heard of (declined here); answers the others. Those are
 * left for the acquirer to end: declining them here would keep a payment made on the acquirer's form before its session
 * ends. Reconciliation (acquirer/gateway.ts) settles them from the acquirer's word: unpaid, declined at the session's
 * end; paid after the close, refunded at the acquirer (a closed bill takes no money).
 */
async function endPendingAttempts(tx: Store, billOid: string): Promise<AttemptRow[]> {
  const atAcquirer: AttemptRow[] = [];
  for (const pending of await pendingAttemptsOfBill(tx, billOid)) {
    if (pending.register_started_at !== null) atAcquirer.push(pending);
    else await applyAcquirerOutcome(tx, pending.order_id, { kind: 'declined', reason: 'bill-closed' });
  }
  return atAcquirer;
}

/**
 * The merchant cancels an unpaid bill: it is closed, its pending attempts ended (endPendingAttempts), `bill.cancelled`
 * queued, all in one transaction. Cancelling a cancelled bill again answers it as it is; a paid or expired one is a
 * BillConflict. `atAcquirer`: the attempts the acquirer is still to settle.
 */
export async function cancelBill(store: Store, oid: string): Promise<{ bill: BillRow; atAcquirer: AttemptRow[] }> {
  return store.transaction(async (tx) => {
    const bill = await billByOid(tx, oid);
    if (!bill) throw new BillNotFound();
    const status = billStatus(bill, tx.now());
    if (status === 'cancelled') return { bill, atAcquirer: [] };
    if (status === 'paid') throw new BillConflict('bill_paid', 'The bill is paid: it cannot be cancelled');
    if (status === 'expired') throw new BillConflict('bill_expired', 'The bill has expired: it cannot be cancelled');
    await closeBill(tx, oid, 'cancelled');
    const atAcquirer = await endPendingAttempts(tx, oid);
    const closed = (await billByOid(tx, oid))!;
    await billClosedEvent(tx, closed);
    return { bill: closed, atAcquirer };
  });
}

/**
 * The expiry sweep: closes the open bills whose expiresAt has come, declines their pending attempts and queues
 * `bill.expired`, a transaction per bill; answers how many it closed. Safe to run in every process at once (a bill
 * closed meanwhile is skipped).
 */
export async function expireDueBills(store: Store, limit = 100): Promise<number> {
  let closed = 0;
  for (const oid of await billsDueToExpire(store, limit)) {
    const done = await store.transaction(async (tx) => {
      const bill = await billByOid(tx, oid);
      if (!bill || billStatus(bill, tx.now()) !== 'expired' || bill.closed_as) return false;
      if (!(await closeBill(tx, oid, 'expired'))) return false;
      await endPendingAttempts(tx, oid);
      await billClosedEvent(tx, (await billByOid(tx, oid))!);
      return true;
    });
    if (done) closed += 1;
  }
  return closed;
}
