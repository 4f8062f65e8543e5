/**
 * A customer's loyalty points (issue 14): the balance is the sum of the ledger (points_ledger), which the page reads
 * too. Credits and debits come from the merchant API and the demo seed; payments write their own debit (payments.ts).
 */
import type { LedgerRow, Store } from '../store/store';

/** A debit larger than the balance: the balance never goes below zero. */
export class BalanceTooLow extends Error {
  constructor(readonly balance: number) {
    super(`The balance is ${balance}: the debit would take it below zero`);
  }
}

/**
 * Adds `delta` points (negative: a debit) to a customer's ledger, checked and written in one transaction so two
 * debits at once can never both pass the check; answers the new balance and the entry.
 */
export function adjustPoints(store: Store, custNo: string, delta: number, reason: string): Promise<{ balance: number; entry: LedgerRow }> {
  return store.transaction(async (tx) => {
    const balance = await tx.pointsBalance(custNo);
    if (balance + delta < 0) throw new BalanceTooLow(balance);
    const entry = await tx.insertLedgerEntry({ cust_no: custNo, delta, reason, order_id: null });
    return { balance: balance + delta, entry };
  });
}
