/**
 * The positions a refund returns, for the refund receipt of an order that carried a fiscal receipt: the merchant names
 * them, or the money is spread over what is left of each position in proportion (largest remainder, to the kopeck). A
 * position never gives back more than it was charged, over all of the payment's refunds.
 */
import { splitByLargestRemainder } from './chargedItems';
import type { AttemptItemRow, RefundItemRow } from './tables';

/** A position the merchant names: the receipt's positionId, and how much of it (default: all that is left of it). */
export interface RefundItemInput {
  positionId: number;
  amountKopecks: number | null;
  quantityMilli: number | null;
}

export type FieldProblem = { field: string; message: string };

/** What is left of each position to give back: charged, less what earlier refunds (pending or succeeded) returned. */
const leftOf = (item: AttemptItemRow, returned: ReadonlyMap<number, number>) => item.amount_kopecks - (returned.get(item.position_id) ?? 0);

/**
 * Spreads `amount` over the positions by what is left of each, in proportion; a position given back whole returns its
 * whole quantity, a part of one keeps its quantity (the receipt's price per unit is then lowered, as a discount is).
 */
export function spreadRefund(refundId: string, items: readonly AttemptItemRow[], returned: ReadonlyMap<number, number>, amount: number): RefundItemRow[] {
  const left = items.map((item) => leftOf(item, returned));
  const shares = splitByLargestRemainder(left, amount);
  return items
    .map((item, i) => ({ refund_id: refundId, position_id: item.position_id, quantity_milli: item.quantity_milli, amount_kopecks: shares[i]! }))
    .filter((item) => item.amount_kopecks > 0);
}

/** The merchant's positions checked against the payment's: every problem by field, or the rows. */
export function namedRefundItems(
  refundId: string,
  items: readonly AttemptItemRow[],
  returned: ReadonlyMap<number, number>,
  requested: readonly RefundItemInput[],
): { problems: FieldProblem[]; rows: RefundItemRow[] } {
  const problems: FieldProblem[] = [];
  const rows: RefundItemRow[] = [];
  const seen = new Set<number>();
  requested.forEach((wanted, i) => {
    const at = `items[${i}]`;
    const item = items.find((candidate) => candidate.position_id === wanted.positionId);
    if (!item) return problems.push({ field: `${at}.positionId`, message: `is not a position of this payment's receipt (${items.map((c) => c.position_id).join(', ')})` });
    if (seen.has(item.position_id)) return problems.push({ field: `${at}.positionId`, message: 'names a position twice' });
    seen.add(item.position_id);
    const left = leftOf(item, returned);
    if (left <= 0) return problems.push({ field: wanted.amountKopecks === null ? `${at}.positionId` : `${at}.amount.value`, message: 'this position was given back whole already' });
    const amount = wanted.amountKopecks ?? left;
    if (amount <= 0) return problems.push({ field: `${at}.amount.value`, message: 'must be more than 0.00' });
    if (amount > left) return problems.push({ field: `${at}.amount.value`, message: `is more than is left of this position (${(left / 100).toFixed(2)})` });
    const quantity = wanted.quantityMilli ?? item.quantity_milli;
    if (quantity <= 0 || quantity > item.quantity_milli) return problems.push({ field: `${at}.quantity`, message: `must be more than 0 and at most ${item.quantity_milli / 1000}, with at most 3 decimals` });
    rows.push({ refund_id: refundId, position_id: item.position_id, quantity_milli: quantity, amount_kopecks: amount });
    return undefined;
  });
  return { problems, rows };
}
