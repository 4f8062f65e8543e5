/**
 * The acquirer port: what the checkout needs from a bank's internet acquiring, in its own words. The adapter speaks
 * the bank's protocol and turns its answers into these words: RBS REST is one adapter (rbs.ts), whose order status
 * numbers, error codes, currency code and bank-app parameters live there only; a second acquirer would be a second
 * adapter. The sandbox serves a fake of RBS, so tests drive that adapter.
 */

import type { CartItem, FiscalReceipt } from './orderBundle';

/** An order to register for an attempt (amounts in kopecks of roubles, the checkout's only currency). */
export interface NewOrder {
  /** Ours, ≤ 32 chars, unique per shop: the idempotency key at the acquirer. */
  orderNumber: string;
  amount: number;
  returnUrl: string;
  failUrl?: string;
  description?: string;
  email?: string | null;
  sessionTimeoutSecs?: number;
  /** Where the acquirer tells this server that the order changed. */
  callbackUrl?: string;
  /** Where the bank app sends the payer back after paying (bank-app pay only). */
  bankAppReturnUrl?: string;
  /** The fiscal receipt the acquirer's cash-register service issues for the order (none: the merchant issues its own). */
  receipt?: FiscalReceipt;
  /** Hold the money on the card when the payer pays, until it is captured or released (two-stage). */
  hold?: boolean;
}

/** The acquirer's answer to a new order: registered (its id and card form), or the order number was registered before. */
export type RegisterAnswer = { kind: 'registered'; orderId: string; formUrl: string } | { kind: 'registered before' };

/** Where an order stands, in the acquirer's word. */
export type OrderState =
  /** Registered, nothing paid yet: its session may run out. */
  | { kind: 'waiting' }
  /** The payer is paying (3-D Secure, …): wait for the final word. */
  | { kind: 'paying' }
  /** The money is held, not yet taken. */
  | { kind: 'held' }
  | { kind: 'paid' }
  /** Declined (by the bank, the payer or the acquirer's own time-out), or reversed after it was held or paid. */
  | { kind: 'declined'; reason: 'declined' | 'reversed' }
  /** All its money given back. */
  | { kind: 'refunded' };

export interface Order {
  /** The acquirer's id of the order; null when its answer does not say. */
  orderId: string | null;
  state: OrderState;
  /** What the order is for, kopecks. */
  amount: number;
  /** What it has given back so far (all of it once reversed), kopecks. */
  givenBack: number;
  /** What was taken, kopecks: once paid, all of it; a hold captured, what the capture took. */
  taken: number;
  /** The money has been settled (taken): a whole refund of an order not yet settled is a reversal. */
  settled: boolean;
  /** Why the order ended as it did: 0 paid; for a declined card, the reason (src/services/rules/declineReasons.ts). */
  actionCode: number | null;
  /** The card paid or declined with, as the acquirer masks it ('411111**1111'); null: none. */
  maskedPan: string | null;
}

/** A refund at the acquirer: the amount, and the positions returned where the order carried a fiscal receipt. */
export interface RefundRequest {
  orderId: string;
  amount: number;
  refundItems?: CartItem[];
}

export interface SbpQr {
  qrId: string;
  qrStatus: string | null;
  payload: string;
  /** Base64 PNG. */
  renderedQr: string;
}

export interface SbpQrStatus {
  qrStatus: string;
  transactionState: string | null;
}

/** Which attempt a call is about and which request made it (kept with the exchange for support). */
export interface CallContext {
  attempt?: string;
  /** The request the call is part of (its X-Request-Id); none for the server's own work. */
  requestId?: string | null;
}

export interface Acquirer {
  register(order: NewOrder, context?: CallContext): Promise<RegisterAnswer>;
  /** The order with this id at the acquirer. */
  order(orderId: string, context?: CallContext): Promise<Order>;
  /** The order registered under our order number; null: the acquirer has none. */
  findOrder(orderNumber: string, context?: CallContext): Promise<Order | null>;
  sbpQr(request: { orderId: string; size?: number }, context?: CallContext): Promise<SbpQr>;
  sbpQrStatus(request: { orderId: string; qrId: string }, context?: CallContext): Promise<SbpQrStatus>;
  /** Refunds a part or all of a settled order; answers the acquirer's answer in a line (kept with the refund). */
  refund(request: RefundRequest, context?: CallContext): Promise<string>;
  /** Reverses an order not yet settled, all of it (or `amount` of a hold); answers as refund does. */
  reverse(request: { orderId: string; amount?: number }, context?: CallContext): Promise<string>;
  /**
   * Takes held money: `amount` kopecks, at most what is held, with the receipt of the positions taken when it is less
   * than the whole (the order's own receipt otherwise); answers as refund does.
   */
  capture(request: { orderId: string; amount: number; receipt?: FiscalReceipt }, context?: CallContext): Promise<string>;
  /**
   * Ends an order not paid yet: its card form, QR and bank-app link can no longer be paid. Throws when the acquirer
   * refuses (an order already paid among others): its status then says what it is.
   */
  decline(request: { orderId: string }, context?: CallContext): Promise<void>;
}

export type AcquirerErrorKind = 'timeout' | 'http' | 'not-json' | 'remote' | 'network';

/**
 * Every failure of an acquirer call: what kind, the remote error code and message when it answered one (`remote`: a
 * refusal, not an outage), and the method.
 */
export class AcquirerError extends Error {
  constructor(
    readonly method: string,
    readonly kind: AcquirerErrorKind,
    message: string,
    readonly errorCode: string | null = null,
    readonly httpStatus: number | null = null,
  ) {
    super(`${method}: ${message}`);
    this.name = 'AcquirerError';
  }

  /** The acquirer answered this error code (a business answer, not an outage). */
  is(code: string): boolean {
    return this.kind === 'remote' && this.errorCode === code;
  }

  /** The refusal in a line, as kept with what was refused. */
  get refusal(): string {
    return `${this.method} refused: ${this.errorCode ?? ''} ${this.message}`.trim();
  }
}

/** One exchange with the acquirer, as the adapter reports it (never the credentials). */
export interface Exchange {
  attempt: string | null;
  /** The request the call was part of; null for the server's own (a sweep's). */
  requestId: string | null;
  method: string;
  /** Answered (`ok`), or how it failed. */
  outcome: 'ok' | AcquirerErrorKind;
  request: Record<string, string>;
  answer: unknown;
  error: string | null;
  httpStatus: number | null;
  ms: number;
}
