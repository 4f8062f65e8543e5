/**
 * What a payment costs, in kopecks: the bill's sum, the chosen type's commission and the points spent (one point is
 * one rouble). The page computes the same from the bill data it is sent (src/services/pricing.ts).
 */
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import { pointsBalance } from '../loyalty/ledger';
import type { Store } from '../store/store';

/** Points the bill's customer can spend on it now: the bill's limit, capped by the balance. */
export async function usefulPoints(store: Store, bill: BillRow): Promise<number> {
  if (!bill.points_enabled || !bill.cust_no) return 0;
  return Math.max(0, Math.min(bill.useful_points_limit, await pointsBalance(store, bill.cust_no)));
}

/** The most points a payment may use: the smaller of the useful points and (sum + commission) in whole roubles. */
export function maxSpendablePoints(useful: number, sumKopecks: number, commissionKopecks: number): number {
  return Math.max(0, Math.min(useful, Math.floor((sumKopecks + commissionKopecks) / 100)));
}

/** The commission: the chosen type's; with no type chosen the lowest applies (what a points-only payment pays). */
export function paymentCommission(types: readonly PaymentTypeRow[], type: PaymentTypeRow | undefined): number {
  if (type) return type.commission_kopecks;
  return types.length > 0 ? Math.min(...types.map((t) => t.commission_kopecks)) : 0;
}

/** The final price: sum + commission − used points (a point is 100 kopecks). */
export const amountDue = (sumKopecks: number, commissionKopecks: number, points: number): number => sumKopecks + commissionKopecks - points * 100;
