/**
 * The positions an attempt's order is registered with: its bill's positions (allocated to its part, when it pays a
 * part) and fee less its points, as charged
 * (chargedItems.ts), stored with the attempt when its register.do is first sent, with the tax system of the receipt.
 */
import type { FiscalSettings, TaxSystem } from '../billing/fiscalCodes';
import { positionsOf } from '../billing/items';
import { itemsOfBill } from '../billing/queries';
import type { BillRow } from '../billing/tables';
import type { Store } from '../store/store';
import { chargedPositions, positionsOfPart } from './chargedItems';
import { insertAttemptItems, itemsOfAttempt, partOf } from './queries';
import type { AttemptItemRow, AttemptRow } from './tables';

/** Records the attempt's receipt, in the caller's transaction; answers its positions (those stored before, if any). */
export async function recordReceiptPositions(tx: Store, attempt: AttemptRow, bill: BillRow, fiscal: FiscalSettings & { taxSystem: TaxSystem }): Promise<AttemptItemRow[]> {
  const stored = await itemsOfAttempt(tx, attempt.order_id);
  if (stored.length > 0) return stored;
  const positions = positionsOfPart(positionsOf(bill, await itemsOfBill(tx, bill.oid), fiscal), partOf(attempt));
  await insertAttemptItems(tx, attempt.order_id, chargedPositions(positions, attempt.commission_kopecks, attempt.points_used, fiscal));
  await tx.db.updateTable('payment_attempts').set({ receipt_tax_system: fiscal.taxSystem }).where('order_id', '=', attempt.order_id).execute();
  return itemsOfAttempt(tx, attempt.order_id);
}
