/**
 * The handover: the merchant hands a paid bill's goods over, and every acquirer order that took a prepayment for it
 * gets its closing receipt (full settlement), one row per order (`closing_receipts`), sent by the acquirer's fiscal API
 * (acquirer/closingReceiptSender.ts). Here: whether a bill can be handed over, the rows it makes (the bill chart's
 * effect 'close the prepayments' writes them, payments/moves.ts), and the moves of a row with the webhooks they queue.
 */
import { billByOid } from '../billing/queries';
import type { BillRow } from '../billing/tables';
import type { FfdVersion } from '../billing/fiscalCodes';
import { closingReceiptEvent, type ReceiptNext } from '../merchant/events';
import type { Store } from '../store/store';
import { closingCartOf, type ClosingCart } from './closingCart';
import { moveBill } from './moves';
import { attemptsThatTookMoney, givenBackBy, updateClosingReceipt } from './closingReceiptQueries';
import { itemsOfAttempt } from './queries';
import type { AttemptRow, ClosingReceiptRow, ClosingReceiptState } from './tables';

/** Why a bill cannot be handed over, in the merchant API's terms. */
export class HandoverRefused extends Error {
  constructor(
    readonly kind: 'not_found' | 'already_handed_over' | 'nothing_to_close',
    message: string,
  ) {
    super(message);
  }
}

/** Where a receipt of a payment goes: the e-mail the payer chose (else the bill's), and the customer's phone. */
const contactOf = (attempt: AttemptRow, bill: BillRow) => ({
  email: attempt.email ?? bill.bill_email ?? bill.client_email,
  phone: bill.client_phone ? `+${bill.client_phone}` : null,
});

/**
 * The closing cart of one order that took money for the bill, by its records less what was given back (the merchant's
 * refunds that had succeeded at `asOf`, the handover, and any automatic one); null: nothing to settle.
 */
export async function closingCartOfOrder(tx: Store, attempt: AttemptRow, bill: BillRow, ffd: FfdVersion, asOf: number): Promise<ClosingCart | null> {
  // An order that carried no receipt issued none to close (the merchant issues its own).
  if (attempt.receipt_tax_system === null) return null;
  const items = await itemsOfAttempt(tx, attempt.order_id);
  const givenBack = await givenBackBy(tx, attempt.order_id, asOf);
  return closingCartOf(items, givenBack.byPosition, givenBack.total, contactOf(attempt, bill), ffd);
}

/**
 * The closing receipts a handover of the bill would send now, one per order that took money for it and carried a
 * receipt with something still kept to close; `tookMoney` false: points alone paid it.
 */
async function closingReceiptsDue(tx: Store, bill: BillRow, ffd: FfdVersion) {
  const attempts = await attemptsThatTookMoney(tx, bill.oid);
  const receipts = [];
  for (const attempt of attempts) {
    const cart = await closingCartOfOrder(tx, attempt, bill, ffd, tx.now());
    if (cart) receipts.push({ orderId: attempt.order_id, amountKopecks: cart.orderBundle.total, cart: JSON.stringify(cart) });
  }
  return { tookMoney: attempts.length > 0, receipts };
}

/** Whether the bill can be handed over now: paid in full, with a prepayment to close (what handOver would take). */
export async function canHandOver(store: Store, bill: BillRow, ffd: FfdVersion): Promise<boolean> {
  return bill.state === 'paid' && (await closingReceiptsDue(store, bill, ffd)).receipts.length > 0;
}

/**
 * Hands the bill over at `at`, in the caller's transaction: the bill moves to handedOver and its chart's effect makes
 * the closing receipts. Refused when the bill is not paid in full, is handed over already, or has no prepayment to close
 * (paid with points only, or by receipts that were not prepayments).
 */
export async function handOver(tx: Store, oid: string, at: number, ffd: FfdVersion): Promise<BillRow> {
  const bill = await billByOid(tx, oid);
  if (!bill) throw new HandoverRefused('not_found', 'No bill with this objectOID');
  if (bill.state === 'handedOver') throw new HandoverRefused('already_handed_over', `The bill was handed over already (${new Date(bill.handed_over_at!).toISOString()}): its closing receipts were sent then`);
  if (bill.state !== 'paid') throw new HandoverRefused('nothing_to_close', 'The bill is not paid in full: only a paid bill can be handed over');
  const { tookMoney, receipts } = await closingReceiptsDue(tx, bill, ffd);
  if (!tookMoney) throw new HandoverRefused('nothing_to_close', 'No payment took money for this bill (points alone paid it): there is no prepayment to close');
  if (receipts.length === 0) {
    throw new HandoverRefused('nothing_to_close', "The bill's receipts were not prepayments (or refunds gave everything back): there is nothing to close");
  }
  const moved = await moveBill(tx, oid, { type: 'goods.handedOver', at, receipts });
  if (moved.kind !== 'moved') throw new HandoverRefused('already_handed_over', 'The bill was handed over meanwhile');
  return moved.row;
}

/** A move of a closing receipt: from the state it was read in, with what changes; the row as it now is, or undefined when it moved meanwhile. */
export const moveClosingReceipt = (tx: Store, row: ClosingReceiptRow, to: ClosingReceiptState, facts: Partial<ClosingReceiptRow> = {}) =>
  updateClosingReceipt(tx, row.order_id, row.state, { ...facts, state: to });

/** The gateway registered the receipt: settled, and the merchant told (receipt.registered), in one transaction. */
export const receiptRegistered = (store: Store, row: ClosingReceiptRow) =>
  store.transaction(async (tx) => {
    const moved = await moveClosingReceipt(tx, row, 'registered', { error: null, recommendation: null, due_at: null });
    if (moved) await closingReceiptEvent(tx, 'receipt.registered', moved, null, null);
    return moved;
  });

/**
 * The gateway failed the receipt (`receiptStatus` 4, 5 or 6, its error and recommendation): the merchant is told
 * (receipt.failed, with what happens next), and the row moves as the caller decided: sent again (`to` pending after
 * retryReceipt, unsent to send a corrected cart), or failed for good with why.
 */
export const receiptFailed = (
  store: Store,
  row: ClosingReceiptRow,
  failure: { receiptStatus: number; message: string; recommendation: number | null },
  next: ReceiptNext | null,
  to: ClosingReceiptState,
  facts: Partial<ClosingReceiptRow>,
) =>
  store.transaction(async (tx) => {
    const moved = await moveClosingReceipt(tx, row, to, { recommendation: failure.recommendation, ...facts });
    if (moved) await closingReceiptEvent(tx, 'receipt.failed', moved, failure, next);
    return moved;
  });
