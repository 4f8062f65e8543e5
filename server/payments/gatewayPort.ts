/**
 * What payments need from the acquirer side: the gateway (acquirer/gateway.ts implements it) and the two ways a Pay can
 * fail there. Declared here, where it is used, so payments import nothing of the acquirer folder and the acquirer
 * folder imports payments one way.
 */
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import type { AttemptRow } from './tables';
import type { Store } from '../store/store';

/** The acquirer cannot be reached or refused the order now: the payer is told, the attempt kept, Pay works again later. */
export class AcquirerUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super('Не удалось перейти к оплате: банк сейчас не отвечает. Попробуйте еще раз через минуту или выберите другой способ оплаты');
  }
}

/**
 * The order of this attempt exists at the acquirer but its card form was never learnt (register.do's answer was lost):
 * nobody can have paid on a form nobody saw, so the attempt is ended and the payer's request starts a fresh one.
 */
export class AttemptAbandoned extends Error {}

/** What the page gets to pay an attempt (the payment answer's `info`). */
export interface PaymentInfo {
  orderId: string;
  formUrl: string;
  bankInvoiceId?: string;
  data?: { payload: string; qrcId: string; image: { content: string; mediaType: 'image/png' } };
}

export interface Gateway {
  /** The page's `info` for an attempt: registers its order first if it has none (single flight across processes). */
  paymentInfo(attempt: AttemptRow, type: PaymentTypeRow, bill: BillRow): Promise<PaymentInfo>;
  /** Reads the acquirer's status of the attempt's order and settles from that answer only; answers the attempt. */
  reconcile(orderId: string): Promise<AttemptRow | undefined>;
  /**
   * As `reconcile`, and whether the acquirer answered this very call (false: never registered, the lease held by
   * another reconcile, or no answer), so a caller can tell "the acquirer says not paid" from "not known yet";
   * `busy`: not asked because another request (in any process) is talking to the acquirer about the attempt.
   */
  askAcquirer(orderId: string): Promise<{ attempt: AttemptRow | undefined; answered: boolean; busy: boolean }>;
  /**
   * Reconciles in the background (one in flight per attempt in this process; the lease covers other processes).
   * `news`: the acquirer has just told us something (its callback), so a read already in flight, which may predate
   * it, is followed by one more. A poll or a cancel carries no news: the read in flight answers it too.
   */
  reconcileSoon(orderId: string, why?: { news: boolean }): void;
  /**
   * A capture or release of a held payment: `begin` writes it in a transaction (answers whether it did), under the
   * attempt's lease; deposit.do or reverse.do then goes out once, a lost answer settled by reading the order.
   */
  settleHold(orderId: string, begin: () => Promise<boolean>): Promise<void>;
  /**
   * Ends an attempt left open when its payer chose another way: declines its order at the acquirer (its form, QR or
   * bank-app link can no longer be paid), then reads the order and settles from that answer (an order paid meanwhile
   * settles paid). Answers the attempt as it then is.
   */
  abandon(orderId: string): Promise<AttemptRow | undefined>;
  /** Reconciles pending attempts, makes pending refunds, and releases the holds past their time. */
  sweep(): Promise<void>;
  /**
   * Makes the payment's pending refunds at the acquirer now (each sent once; refund.do, or reverse.do before settlement),
   * waiting its turn while another request holds the attempt's lease.
   */
  makeRefunds(orderId: string): Promise<void>;
  /** As makeRefunds, in the background: a refund the merchant has just asked for. */
  refundSoon(orderId: string): void;
  /**
   * Sends the closing receipts of a bill just handed over (doReceipt, each once): their fate is read later, by the sweep,
   * no sooner than the gateway asks.
   */
  sendClosingReceipts(billOid: string): Promise<void>;
  /**
   * This gateway, its work part of `store`'s request: its calls to the acquirer, the moves they cause (and the webhook
   * events those queue) and its log lines name the request (`store.forRequest(request.id)`).
   */
  on(store: Store): Gateway;
}
