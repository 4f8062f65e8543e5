/**
 * A bill's status, the rule every part of the server reads it by. This module imports nothing: billing, payments, the
 * merchant API and the page's data all depend on it, and it on none of them.
 *
 * The database keeps `open | paid` and a closing mark (cancelled by the merchant, or expired); an open bill whose
 * expiresAt has come is expired even before the expiry sweep closes it.
 */

/** A bill's status as the merchant API names it. */
export type BillStatus = 'unpaid' | 'partially_paid' | 'held' | 'paid' | 'handed_over' | 'cancelled' | 'expired';

/** What the status is read from: the columns of a bill row. */
export interface BillState {
  /**
   * The bill's state in its chart: a bill paid in parts is 'partlyPaid' between its first part and its last; `held`
   * while a payment holds its money (both stored as open, neither paid nor closed); a paid one whose goods were handed
   * over is 'handedOver'.
   */
  state: string;
  status: 'open' | 'paid';
  closed_as: 'cancelled' | 'expired' | null;
  expires_at: number | null;
}

export function billStatus(bill: BillState, now: number): BillStatus {
  if (bill.status === 'paid') return bill.state === 'handedOver' ? 'handed_over' : 'paid';
  if (bill.closed_as) return bill.closed_as;
  // A held bill stays held past its deadline: the hold is the merchant's to capture or release.
  if (bill.state === 'held') return 'held';
  if (bill.expires_at !== null && bill.expires_at <= now) return 'expired';
  return bill.state === 'partlyPaid' ? 'partially_paid' : 'unpaid';
}

/**
 * Why a bill that is not paid takes no payment: cancelled, or expired (its deadline come, swept or not); null for a
 * held bill, which is not closed (its money is held, for the merchant to capture or release). For a bill
 * `unpayableReason` refuses and that is not paid.
 */
export function closedAsOfBill(bill: BillState, now: number): 'cancelled' | 'expired' | null {
  const status = billStatus(bill, now);
  return status === 'cancelled' || status === 'expired' ? status : null;
}

/** Why a bill cannot be paid now, in the payer's words; null when it can. */
export function unpayableReason(bill: BillState, now: number): string | null {
  switch (billStatus(bill, now)) {
    case 'paid':
    case 'handed_over':
      return 'Счет уже оплачен';
    case 'cancelled':
      return 'Счет отменен';
    case 'expired':
      return 'Срок оплаты счета истек';
    case 'held':
      return 'Сумма заблокирована на карте';
    case 'unpaid':
    case 'partially_paid':
      return null;
  }
}
