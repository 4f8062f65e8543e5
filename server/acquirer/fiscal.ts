/**
 * The acquirer's fiscal API, beside its REST one: receipts apart from a payment (the closing receipt at handover). The
 * port in the checkout's words (`FiscalApi`: send a receipt, read an order's or a receipt's receipts, send failed ones
 * again unchanged) and its adapter over Sber's API (doReceipt, getReceiptStatus, retryReceipt), whose receipt status
 * numbers live here only. Same transport and credentials as the REST API (rbs.ts); its base is a setting of its own.
 */
import { answerText as text } from '../platform/formPost';
import type { ClosingCart } from '../payments/closingCart';
import { rbsCaller, type RbsOptions } from './rbs';
import type { CallContext } from './port';

/** The fiscal API's receiptStatus values. */
export const RECEIPT_STATUS = { unknown: 0, waiting: 1, sent: 2, registered: 3, processingError: 4, sendingFailed: 5, unfit: 6 } as const;

/** Recommendations that ask for the cart to be corrected and sent again with doReceipt naming the receipt. */
const CORRECT_THE_CART = [2, 3];

/** A receipt as the gateway tells it. */
export interface FiscalReceiptState {
  receiptId: string;
  /** 'SELL', 'SELL_REFUND', … as the gateway names it. */
  receiptType: string;
  /** The gateway's status number, as the merchant is told it. */
  receiptStatus: number;
  /** Waiting (to be sent, or for the result), registered, or failed (an error, attempts spent, data unfit). */
  kind: 'waiting' | 'registered' | 'failed';
  /** The first receipt, when this one is a resend. */
  origReceiptId: string | null;
  /** Its error: the gateway's words and recommendation, and whether it asks for the cart to be corrected. */
  error: { message: string; recommendation: number | null; correctTheCart: boolean } | null;
}

/** A receipt to send: the order whose prepayment it closes (the acquirer's id), its cart, and the receipt it corrects. */
export interface ReceiptRequest {
  orderId: string;
  cart: ClosingCart;
  /** A failed receipt this one corrects (doReceipt naming it). */
  correcting?: string;
}

export interface FiscalApi {
  /** Sends a receipt (doReceipt); answers its receiptId. */
  sendReceipt(request: ReceiptRequest, context?: CallContext): Promise<string>;
  /** Every receipt of an order, or one receipt (getReceiptStatus). */
  receipts(by: { orderId: string } | { receiptId: string }, context?: CallContext): Promise<FiscalReceiptState[]>;
  /** Sends failed receipts again unchanged (retryReceipt). */
  resend(receiptIds: string[], context?: CallContext): Promise<void>;
}

const kindOf = (status: number): FiscalReceiptState['kind'] =>
  status === RECEIPT_STATUS.registered ? 'registered' : status >= RECEIPT_STATUS.processingError ? 'failed' : 'waiting';

function receiptOf(raw: Record<string, unknown>): FiscalReceiptState {
  const status = Number(raw.receiptStatus ?? 0);
  const error = raw.error && typeof raw.error === 'object' ? (raw.error as Record<string, unknown>) : null;
  const recommendation = error && error.recommendation !== undefined && error.recommendation !== null ? Number(error.recommendation) : null;
  return {
    receiptId: text(raw.receiptId),
    receiptType: text(raw.receiptType),
    receiptStatus: status,
    kind: kindOf(status),
    origReceiptId: text(raw.origReceiptId) || null,
    error: error ? { message: text(error.message) || text(error.code) || 'error', recommendation, correctTheCart: recommendation !== null && CORRECT_THE_CART.includes(recommendation) } : null,
  };
}

/** The fiscal API over Sber's: `baseUrl` ends in `/ofd/v1/` (the partner API's path). */
export function rbsFiscal(options: RbsOptions): FiscalApi {
  const { call, required } = rbsCaller(options);
  return {
    async sendReceipt(request, context) {
      const method = 'doReceipt';
      const answer = await call(
        method,
        {
          orderId: request.orderId,
          email: request.cart.email,
          phone: request.cart.phone,
          receiptId: request.correcting,
          orderBundle: JSON.stringify(request.cart.orderBundle),
        },
        context,
      );
      return required(method, answer, 'receiptId');
    },
    async receipts(by, context) {
      const answer = await call('getReceiptStatus', 'orderId' in by ? { orderId: by.orderId } : { receiptId: by.receiptId }, context);
      const list = Array.isArray(answer.receipts) ? (answer.receipts as Record<string, unknown>[]) : [];
      return list.filter((raw) => raw && typeof raw === 'object').map(receiptOf);
    },
    async resend(receiptIds, context) {
      await call('retryReceipt', { receiptIds: JSON.stringify(receiptIds) }, context);
    },
  };
}
