/**
 * The acquirer port: what the checkout needs from a bank's internet acquiring. One adapter speaks
 * the RBS REST protocol (rbs.ts); the sandbox serves a fake of the same protocol, so tests drive that adapter.
 */

import type { CartItem, FiscalReceipt } from './orderBundle';

/** RBS orderStatus values, as the acquirer's protocol numbers them. */
export const ORDER_STATUS = { registered: 0, held: 1, deposited: 2, reversed: 3, refunded: 4, authStarted: 5, declined: 6 } as const;

export interface RegisterRequest {
  /** Ours, ≤ 32 chars, unique per shop: the idempotency key at the acquirer. */
  orderNumber: string;
  amount: number;
  currency?: number;
  returnUrl: string;
  failUrl?: string;
  description?: string;
  email?: string | null;
  sessionTimeoutSecs?: number;
  dynamicCallbackUrl?: string;
  jsonParams?: Record<string, string>;
  /** The fiscal receipt the acquirer's cash-register service issues for the order (none: the merchant issues its own). */
  receipt?: FiscalReceipt;
}

export interface Registered {
  orderId: string;
  formUrl: string;
}

export interface OrderStatus {
  /** The acquirer's order id (RBS answers it among `attributes` as `mdOrder`); null when the answer does not say. */
  orderId: string | null;
  orderNumber: string;
  orderStatus: number;
  /** Why the order ended as it did: 0 paid; for a declined card, the reason (src/services/rules/declineReasons.ts). */
  actionCode: number | null;
  actionCodeDescription: string;
  /** The card paid or declined with, as the acquirer masks it (`cardAuthInfo.maskedPan`, '411111**1111'); null: none. */
  maskedPan: string | null;
  amount: number;
  currency: string | null;
  date: number | null;
  /** What the order has given back so far (`paymentAmountInfo.refundedAmount`), kopecks; 0 when the answer does not say. */
  refundedAmount: number;
  /**
   * Where the money stands (`paymentAmountInfo.paymentState`): `APPROVED` is held, not yet settled (a whole refund is
   * then a reverse.do); `DEPOSITED`, `REFUNDED`, `REVERSED`, …; null when the answer does not say.
   */
  paymentState: string | null;
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

/** Which attempt a call is about (kept with the exchange for support). */
export interface CallContext {
  attempt?: string;
}

export interface Acquirer {
  register(request: RegisterRequest, context?: CallContext): Promise<Registered>;
  orderStatus(by: { orderId: string } | { orderNumber: string }, context?: CallContext): Promise<OrderStatus>;
  sbpQr(request: { orderId: string; size?: number }, context?: CallContext): Promise<SbpQr>;
  sbpQrStatus(request: { orderId: string; qrId: string }, context?: CallContext): Promise<SbpQrStatus>;
  refund(request: RefundRequest, context?: CallContext): Promise<void>;
  reverse(request: { orderId: string }, context?: CallContext): Promise<void>;
}

export type AcquirerErrorKind = 'timeout' | 'http' | 'not-json' | 'remote' | 'network';

/** Every failure of an acquirer call: what kind, the remote errorCode/errorMessage when it answered one, and the method. */
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

  /** The acquirer answered this errorCode (a business answer, not an outage). */
  is(code: string): boolean {
    return this.kind === 'remote' && this.errorCode === code;
  }
}

/** One exchange with the acquirer, as the adapter reports it (never the credentials). */
export interface Exchange {
  attempt: string | null;
  method: string;
  /** Answered (`ok`), or how it failed. */
  outcome: 'ok' | AcquirerErrorKind;
  request: Record<string, string>;
  answer: unknown;
  error: string | null;
  httpStatus: number | null;
  ms: number;
}
