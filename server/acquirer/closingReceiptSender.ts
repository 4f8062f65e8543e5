/**
 * The closing receipts' sending: each row of a bill handed over goes to the gateway's fiscal API once (doReceipt), its
 * fate is read no sooner than the gateway asks (FISCAL_STATUS_DELAY_MS after sending) and a failed one is sent again.
 * One at a time per row, under its lease, across processes.
 *
 * Never two closing receipts for one order: the row moves to `sent` before doReceipt goes out, with the order's
 * receipts at the gateway as they were; an answer lost on the way is settled by reading the order's receipts again
 * (the new one is this row's), never by a second blind doReceipt. Only when the gateway has shown no new receipt for
 * long after is the receipt taken as never made and sent again.
 *
 * A failed receipt (the gateway's status 4, 5 or 6) is sent again with retryReceipt when the gateway does not ask for
 * the cart to be corrected; when it does, the cart is built again from the payments' records and, if that corrects it,
 * sent with doReceipt naming the failed receipt; otherwise, or after MAX_RESENDS, it stays failed and says why.
 */
import type { AppOptions } from '../config';
import type { ClosingCart } from '../payments/closingCart';
import { closingCartOfOrder, moveClosingReceipt, receiptFailed, receiptRegistered } from '../payments/closingReceipts';
import { closingReceiptByOrder, closingReceiptsDue, closingReceiptsOfBill, releaseClosingReceipt } from '../payments/closingReceiptQueries';
import { attemptByOrder } from '../payments/queries';
import type { ClosingReceiptRow } from '../payments/tables';
import { billByOid } from '../billing/queries';
import { takeLease } from '../platform/lease';
import type { Store } from '../store/store';
import type { FiscalApi, FiscalReceiptState } from './fiscal';
import { AcquirerError } from './port';

/** A failed receipt is sent again at most this many times; then it stays failed. */
export const MAX_RESENDS = 3;

/** A doReceipt whose answer was lost, and whose receipt the gateway has not shown for this long after its delay, was never made. */
export const RECEIPT_UNSEEN_MS = 15 * 60_000;

export interface ClosingReceiptSender {
  /** Sends the bill's closing receipts not yet sent, now (each under its lease; one held elsewhere is left to its holder). */
  sendBill(billOid: string): Promise<void>;
  /** The sweeper's part: every receipt due (to send, to settle a lost answer, to read its fate). */
  sweep(): Promise<void>;
}

export function createClosingReceiptSender(deps: {
  /** The store of the request the receipts are sent for (the root store for the server's own). */
  store: Store;
  fiscal: FiscalApi;
  options: AppOptions;
  log: (message: string, error?: unknown, requestId?: string | null) => void;
}): ClosingReceiptSender {
  const { store, fiscal, options } = deps;
  // A step is at most three calls: the order's receipts, doReceipt (or retryReceipt), and a read.
  const leaseMs = options.acquirerTimeoutMs * 3 + 1000;
  const delay = () => options.fiscalStatusDelayMs;
  const context = (row: ClosingReceiptRow) => ({ attempt: row.order_id, requestId: store.requestId });
  const log = (message: string, error?: unknown) => deps.log(message, error, store.requestId);

  /** The acquirer's order id of the row's payment (the fiscal API names orders by it). */
  const acquirerOrderOf = async (row: ClosingReceiptRow) => (await attemptByOrder(store, row.order_id))!.acquirer_order_id!;

  const failure = (receipt: FiscalReceiptState) => ({
    receiptStatus: receipt.receiptStatus,
    message: receipt.error?.message ?? `receiptStatus ${receipt.receiptStatus}`,
    recommendation: receipt.error?.recommendation ?? null,
  });

  /** Sends the row's cart (correcting the receipt it names, if any): the gateway's answer, or the row left `sent`. */
  async function send(row: ClosingReceiptRow, correcting: string | null): Promise<void> {
    const orderId = await acquirerOrderOf(row);
    const before = (await fiscal.receipts({ orderId }, context(row))).map((receipt) => receipt.receiptId);
    // Sent once: a row no longer unsent (sent by another process meanwhile) is not sent again.
    const sent = await moveClosingReceipt(store, row, 'sent', { receipts_before: JSON.stringify(before), sent_at: store.now(), due_at: store.now() + delay() });
    if (!sent) return;
    const cart = JSON.parse(row.cart) as ClosingCart;
    let receiptId: string;
    try {
      receiptId = await fiscal.sendReceipt({ orderId, cart, ...(correcting ? { correcting } : {}) }, context(row));
    } catch (error) {
      if (error instanceof AcquirerError && error.kind === 'remote') {
        await receiptFailed(store, sent, { receiptStatus: 0, message: error.refusal, recommendation: null }, 'none', 'failed', { error: `doReceipt was refused: ${error.refusal}`, due_at: null });
        return;
      }
      log(`closing receipt of ${row.order_id}: no answer to doReceipt; the order's receipts will say whether it was made`, error);
      return;
    }
    await moveClosingReceipt(store, sent, 'pending', { receipt_id: receiptId });
  }

  /** A doReceipt whose answer never came: the order's receipts say whether it was made (the new one is this row's). */
  async function settleLost(row: ClosingReceiptRow): Promise<void> {
    const before = new Set(JSON.parse(row.receipts_before ?? '[]') as string[]);
    const receipts = await fiscal.receipts({ orderId: await acquirerOrderOf(row) }, context(row));
    const made = receipts.find((receipt) => !before.has(receipt.receiptId) && receipt.receiptType.toUpperCase() === 'SELL');
    if (made) {
      const found = await moveClosingReceipt(store, row, 'pending', { receipt_id: made.receiptId });
      if (found) await settle(found, made);
      return;
    }
    if (store.now() - row.sent_at! >= delay() + RECEIPT_UNSEEN_MS) {
      // Never made: the gateway would have shown it by now. Sent again, after reading the order's receipts again.
      await moveClosingReceipt(store, row, 'unsent', { due_at: store.now() });
      return;
    }
    await moveClosingReceipt(store, row, 'sent', { due_at: store.now() + delay() });
  }

  /** The receipt's fate by the gateway's word. */
  async function settle(row: ClosingReceiptRow, receipt: FiscalReceiptState): Promise<void> {
    if (receipt.kind === 'waiting') {
      await moveClosingReceipt(store, row, 'pending', { due_at: store.now() + delay() });
      return;
    }
    if (receipt.kind === 'registered') {
      await receiptRegistered(store, row);
      return;
    }
    const failed = failure(receipt);
    const why = `the gateway failed it (receiptStatus ${failed.receiptStatus}): ${failed.message}`;
    if (row.resends >= MAX_RESENDS) {
      await receiptFailed(store, row, failed, 'none', 'failed', { error: `${why}; sent ${row.resends + 1} times, it failed every time`, due_at: null });
      return;
    }
    if (receipt.error?.correctTheCart) {
      const corrected = await correctedCart(row);
      if (!corrected) {
        await receiptFailed(store, row, failed, 'none', 'failed', {
          error: `${why}; the gateway asks to correct the cart, but it is as the payments' records are: nothing for the server to correct`,
          due_at: null,
        });
        return;
      }
      // Sent again corrected: doReceipt naming the failed receipt, at the next step (the row unsent with the new cart).
      const amount = (JSON.parse(corrected) as ClosingCart).orderBundle.total;
      const again = await receiptFailed(store, row, failed, 'corrected', 'unsent', { cart: corrected, amount_kopecks: amount, resends: row.resends + 1, error: why, due_at: store.now() });
      if (again) await send(again, row.receipt_id);
      return;
    }
    const again = await receiptFailed(store, row, failed, 'retried', 'pending', { resends: row.resends + 1, error: why, due_at: store.now() + delay() });
    if (!again) return;
    try {
      await fiscal.resend([row.receipt_id!], context(row));
    } catch (error) {
      if (error instanceof AcquirerError && error.kind === 'remote') {
        await moveClosingReceipt(store, again, 'failed', { error: `${why}; retryReceipt was refused: ${error.refusal}`, due_at: null });
        return;
      }
      // No answer: the next read of its status tells whether it was resent.
      log(`closing receipt of ${row.order_id}: no answer to retryReceipt`, error);
    }
  }

  /**
   * The cart built again from the payments' records as they stood at the handover (refunds since return goods handed
   * over, with receipts of their own), with the settings now (a receipt format the merchant corrected since), when it
   * differs from the one sent (JSON); null when it does not.
   */
  async function correctedCart(row: ClosingReceiptRow): Promise<string | null> {
    const attempt = (await attemptByOrder(store, row.order_id))!;
    const bill = (await billByOid(store, row.bill_oid))!;
    const cart = await closingCartOfOrder(store, attempt, bill, options.fiscal.ffd, row.created_at);
    const json = cart ? JSON.stringify(cart) : null;
    return json && json !== row.cart ? json : null;
  }

  async function step(row: ClosingReceiptRow): Promise<void> {
    if (row.state === 'unsent') return send(row, null);
    if (row.state === 'sent') return settleLost(row);
    if (row.state !== 'pending') return;
    const [receipt] = (await fiscal.receipts({ receiptId: row.receipt_id! }, context(row))).filter((found) => found.receiptId === row.receipt_id);
    if (receipt) await settle(row, receipt);
    else await moveClosingReceipt(store, row, 'pending', { due_at: store.now() + delay() });
  }

  /** One step on the row under its lease; nothing when another holds it. */
  async function inLease(orderId: string): Promise<void> {
    if (!(await takeLease(store, 'closing_receipts', { order_id: orderId }, 'lease_until', store.now() + leaseMs))) return;
    try {
      const row = await closingReceiptByOrder(store, orderId);
      if (row) await step(row);
    } catch (error) {
      log(`closing receipt of ${orderId} failed; the sweep tries again`, error);
    } finally {
      await releaseClosingReceipt(store, orderId);
    }
  }

  return {
    async sendBill(billOid) {
      for (const row of await closingReceiptsOfBill(store, billOid)) if (row.state === 'unsent') await inLease(row.order_id);
    },
    async sweep() {
      for (const row of await closingReceiptsDue(store, 100)) await inLease(row.order_id);
    },
  };
}
