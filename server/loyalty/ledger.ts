/**
 * A customer's loyalty points: the balance is the sum of the ledger (points_ledger), which the page reads too. Credits
 * and debits come from the merchant API and the demo seed; a payment writes its own debit (payments/outcome.ts), a refund
 * its credit (payments/refunds.ts).
 */
import type { Store } from '../store/store';
import type { LedgerRow } from './tables';

/** A debit larger than the balance: the balance never goes below zero. */
export class BalanceTooLow extends Error {
  constructor(readonly balance: number) {
    super(`The balance is ${balance}: the debit would take it below zero`);
  }
}

export async function pointsBalance(store: Store, custNo: string): Promise<number> {
  const row = await store.db
    .selectFrom('points_ledger')
    .select((eb) => eb.cast<number>(eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)), 'bigint').as('balance'))
    .where('cust_no', '=', custNo)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/**
 * Adds an entry to a customer's ledger and answers it as stored; the caller has checked the balance. `order_id`: the
 * payment that spent the points; `refund_id`: the refund that gave them back.
 */
export const addLedgerEntry = (store: Store, entry: Pick<LedgerRow, 'cust_no' | 'delta' | 'reason' | 'order_id'> & { refund_id?: string }): Promise<LedgerRow> =>
  store.db.insertInto('points_ledger').values({ ...entry, created_at: store.now() }).returningAll().executeTakeFirstOrThrow();

/** A customer's ledger, newest first, entries older than `beforeId` (all when undefined). */
export function ledgerPage(store: Store, custNo: string, beforeId: number | undefined, limit: number): Promise<LedgerRow[]> {
  let query = store.db.selectFrom('points_ledger').selectAll().where('cust_no', '=', custNo);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Adds `delta` points (negative: a debit) to a customer's ledger, checked and written in one transaction so two
 * debits at once can never both pass the check; answers the new balance and the entry.
 */
export function adjustPoints(store: Store, custNo: string, delta: number, reason: string): Promise<{ balance: number; entry: LedgerRow }> {
  return store.transaction(async (tx) => {
    const balance = await pointsBalance(tx, custNo);
    if (balance + delta < 0) throw new BalanceTooLow(balance);
    const entry = await addLedgerEntry(tx, { cust_no: custNo, delta, reason, order_id: null });
    return { balance: balance + delta, entry };
  });
}
