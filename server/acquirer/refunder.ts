/**
 * The gateway's refunds: each pending refund row of a payment goes to the acquirer once, oldest first, one at a time per
 * payment (under the attempt's lease, across processes). Before sending, the order is read: what it has given back so
 * far is kept with the row, and an order not yet settled is reversed (reverse.do) when the refund is whole. refund.do
 * carries the amount and, where the order carried a fiscal receipt, the positions returned. The row moves to `sent`
 * (its chart, lifecycle/refund.ts) before the request leaves and is never sent again: an answer lost on the way is
 * resolved by reading the order (what it has given back against what it had before), now or at a later sweep, never by
 * asking again.
 */
import { billByOid } from '../billing/queries';
import type { AppOptions } from '../config';
import type { RefundEvent } from '../lifecycle/refund';
import { moveRefund } from '../payments/moves';
import { attemptByOrder, itemsOfAttempt } from '../payments/queries';
import { itemsOfRefund, ordersWithPendingRefunds, pendingRefundsOfOrder, refundById } from '../payments/refundQueries';
import type { AttemptRow, RefundRow } from '../payments/tables';
import type { Background } from '../platform/background';
import type { Store } from '../store/store';
import { withAttemptLease } from './attempts';
import { cartItemOf, type CartItem } from './orderBundle';
import { AcquirerError, type Acquirer } from './port';

/** A refund sent whose answer was lost, and which the order has not shown for this long, did not happen: it failed. */
export const REFUND_UNSEEN_MS = 15 * 60_000;

/** One step on a payment's refunds: 'more' (look again), 'done' (none pending), 'waiting' (a lost answer not yet seen). */
type Step = 'more' | 'done' | 'waiting';

export interface Refunder {
  /** Makes the payment's pending refunds now; 'busy' when another request holds the attempt's lease. */
  process(orderId: string): Promise<Step | 'busy'>;
  /** As process, waiting its turn while another request holds the lease (for as long as a lease lasts). */
  inTurn(orderId: string): Promise<void>;
  /** As inTurn, in the background. */
  soon(orderId: string): void;
  /** The sweeper's part: every payment with a refund pending. */
  sweep(): Promise<void>;
}

export function createRefunder(deps: {
  /** The store of the request the refunds are made for (the root store for the server's own). */
  store: Store;
  acquirer: Acquirer;
  options: AppOptions;
  background: Background;
  log: (message: string, error?: unknown, requestId?: string | null) => void;
}): Refunder {
  const { store, acquirer, options } = deps;
  // A step is at most three calls: the order read, the refund, the read that resolves a lost answer.
  const leaseMs = options.acquirerTimeoutMs * 3 + 1000;
  /** A call about the attempt, as part of the store's request (kept with the exchange). */
  const about = (attempt: AttemptRow) => ({ attempt: attempt.order_id, requestId: store.requestId });
  const log = (message: string, error?: unknown) => deps.log(message, error, store.requestId);

  /** The refund's end, with the acquirer's answer (or how a lost one was resolved) kept with it. */
  const settle = (refund: RefundRow, event: RefundEvent, answer: string) => moveRefund(store, refund.id, event, { acquirer_answer: answer });

  /**
   * The positions the refund returns, as the acquirer's receipt names them (none: the order carried no receipt). A whole
   * refund made before refunds named positions (kept from the attempt's old refund flag) returns every position whole.
   * After the handover they are full payments: what was handed over (and settled by the closing receipt) comes back.
   */
  async function refundItemsOf(attempt: AttemptRow, refund: RefundRow): Promise<CartItem[]> {
    const handedOver = (await billByOid(store, attempt.bill_oid))?.state === 'handedOver';
    const charged = (await itemsOfAttempt(store, attempt.order_id)).map((item) => (handedOver ? { ...item, payment_method: 'full_payment' as const } : item));
    const named = await itemsOfRefund(store, refund.id);
    const whole = named.length === 0 && refund.amount_kopecks === attempt.amount_kopecks;
    const returned = whole ? charged.map((item) => ({ position_id: item.position_id, quantity_milli: item.quantity_milli, amount_kopecks: item.amount_kopecks })) : named;
    return returned.map((part) => {
      const item = charged.find((candidate) => candidate.position_id === part.position_id)!;
      const priceKopecks = Math.round((part.amount_kopecks * 1000) / part.quantity_milli);
      return cartItemOf({ ...item, quantity_milli: part.quantity_milli, amount_kopecks: part.amount_kopecks, price_kopecks: priceKopecks }, options.fiscal.ffd);
    });
  }

  /** A refund sent before whose answer never came: the order says whether it was made. */
  async function resolveLost(attempt: AttemptRow, refund: RefundRow): Promise<Step> {
    const seen = (await acquirer.order(attempt.acquirer_order_id!, about(attempt))).givenBack;
    if (seen >= (refund.acquirer_refunded_before ?? 0) + refund.amount_kopecks) {
      await settle(refund, { type: 'lostAnswer.seen' }, `the answer was lost; the order shows ${seen} kopecks given back`);
      return 'more';
    }
    if (store.now() - refund.sent_at! > REFUND_UNSEEN_MS) {
      await settle(refund, { type: 'lostAnswer.unseen' }, `the answer was lost and the order never showed it (${seen} kopecks given back)`);
      return 'more';
    }
    return 'waiting';
  }

  async function send(attempt: AttemptRow, refund: RefundRow): Promise<Step> {
    const orderId = attempt.acquirer_order_id!;
    const context = about(attempt);
    const order = await acquirer.order(orderId, context);
    const before = order.givenBack;
    const method = refund.amount_kopecks === attempt.amount_kopecks && before === 0 && !order.settled ? 'reverse' : 'refund';
    const refundItems = method === 'refund' ? await refundItemsOf(attempt, refund) : [];
    // Sent once: a row its chart no longer has pending (sent by another process meanwhile) is not sent again.
    const sent = await moveRefund(store, refund.id, { type: 'refund.sent' }, { method, acquirer_refunded_before: before, sent_at: store.now() });
    if (sent.kind !== 'moved') return 'more';
    let answer: string;
    try {
      if (method === 'reverse') answer = await acquirer.reverse({ orderId }, context);
      else answer = await acquirer.refund({ orderId, amount: refund.amount_kopecks, ...(refundItems.length > 0 ? { refundItems } : {}) }, context);
    } catch (error) {
      if (error instanceof AcquirerError && error.kind === 'remote') {
        await settle(refund, { type: 'acquirer.refused' }, error.refusal);
        return 'more';
      }
      log(`refund ${refund.id} of order ${attempt.order_id}: no answer; the order will say whether it was made`, error);
      return resolveLost(attempt, (await refundById(store, refund.id))!);
    }
    await settle(refund, { type: 'acquirer.refunded' }, answer);
    return 'more';
  }

  async function step(orderId: string): Promise<Step> {
    const [refund] = await pendingRefundsOfOrder(store, orderId);
    if (!refund) return 'done';
    const attempt = (await attemptByOrder(store, orderId))!;
    // Pending: never sent. Sent: its answer was lost, and only the order can tell how it ended.
    return refund.state === 'pending' ? send(attempt, refund) : resolveLost(attempt, refund);
  }

  async function process(orderId: string): Promise<Step | 'busy'> {
    for (;;) {
      const done = await withAttemptLease(store, orderId, store.now() + leaseMs, () => step(orderId));
      if (done === undefined) return 'busy';
      if (done !== 'more') return done;
    }
  }

  async function inTurn(orderId: string): Promise<void> {
    // Another request holds the lease (a reconcile, another refund's step that may have looked before this row
    // existed): wait for it, for as long as a lease lasts, rather than leave the refund to the next sweep.
    const deadline = Date.now() + leaseMs;
    while ((await process(orderId)) === 'busy' && Date.now() < deadline && !deps.background.closing) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    process,
    inTurn,
    soon: (orderId) => deps.background.run(`refunds of ${orderId}`, () => inTurn(orderId)),
    async sweep() {
      for (const orderId of await ordersWithPendingRefunds(store, 100)) {
        await process(orderId).catch((error: unknown) => log(`sweep: refunds of ${orderId} failed`, error));
      }
    },
  };
}
