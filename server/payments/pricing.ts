/**
 * What a payment costs, in kopecks: the bill's sum, the chosen type's commission and the points spent (one point is
 * one rouble). The arithmetic is the one the page shows (src/services/rules/pricing.ts); this module feeds it the
 * server's rows and the customer's balance.
 */
import { commissionOf } from '../../src/services/rules/pricing';
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import { pointsBalance } from '../loyalty/ledger';
import type { Store } from '../store/store';

export { amountDue, maxSpendablePoints } from '../../src/services/rules/pricing';

/** Points the bill's customer can spend on it now: the bill's limit, capped by the balance. */
export async function usefulPoints(store: Store, bill: BillRow): Promise<number> {
  if (!bill.points_enabled || !bill.cust_no) return 0;
  return Math.max(0, Math.min(bill.useful_points_limit, await pointsBalance(store, bill.cust_no)));
}

/** The commission: the chosen type's; with no type chosen the lowest applies (what a points-only payment pays). */
export const paymentCommission = (types: readonly PaymentTypeRow[], type: PaymentTypeRow | undefined): number =>
  commissionOf(
    types.map((t) => t.commission_kopecks),
    type?.commission_kopecks,
  );
