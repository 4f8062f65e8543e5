/**
 * The payments table: a payment attempt is one try to pay a bill by one payment type, for an amount, with points. Its
 * acquirer columns (the order at the acquirer, the lease) are written by the acquirer gateway (acquirer/attempts.ts).
 * A payment has many refunds (refunds); what it has given back is what its succeeded ones add up to. An attempt's and a
 * refund's `state` (and `status`, the API's word for it) are their charts' (server/lifecycle/), written there only.
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { TaxSystem } from '../billing/fiscalCodes';
import type { PositionColumns } from '../billing/tables';
import type { AttemptState, PaymentStatus, StoredPaymentStatus } from '../lifecycle/attempt';
import type { RefundState, RefundStatus } from '../lifecycle/refund';

export type { PaymentStatus, RefundStatus };

export interface PaymentAttemptsTable {
  order_id: string;
  bill_oid: string;
  card_type_oid: string;
  amount_kopecks: number;
  commission_kopecks: number;
  points_used: number;
  /**
   * What of its bill the payment pays (its amount is this, plus the fee, less the points); null: the whole bill (every
   * payment of a bill not paid in parts, and those made before parts were).
   */
  part_kopecks: Generated<number | null>;
  email: string | null;
  user_oid: string | null;
  manager_id: string | null;
  /** The attempt's state in its chart (lifecycle/attempt.ts). */
  state: Generated<AttemptState>;
  /** The stored word for the state (lifecycle/attempt.ts, storedStatusOf), written with it; the API reads the state. */
  status: StoredPaymentStatus;
  created_at: number;
  updated_at: number;
  /** What the acquirer answered to register.do (null until it did): its order id and, for a card, its form. */
  acquirer_order_id: Generated<string | null>;
  form_url: Generated<string | null>;
  /** The fast-payment QR of the order (sbp/c2b/qr/dynamic/get.do): its id, content and rendered PNG (base64). */
  sbp_qrc_id: Generated<string | null>;
  sbp_payload: Generated<string | null>;
  sbp_image: Generated<string | null>;
  /** When register.do was first sent: an order may exist at the acquirer even if no answer came. */
  register_started_at: Generated<number | null>;
  /** When the acquirer's status of the order was last read. */
  acquirer_checked_at: Generated<number | null>;
  /** Someone is talking to the acquirer about this attempt until then (single flight across processes). */
  lease_until: Generated<number | null>;
  /** The order's session time-out: past it with nothing paid, the attempt ends declined. */
  expires_at: Generated<number | null>;
  /**
   * The session that asked for the attempt last, whose receipt e-mail it carries: only that session is given the address
   * whole to prefill a retry; null once the session ended, and for attempts made before this was recorded.
   */
  session_id: Generated<string | null>;
  /**
   * The tax system of the fiscal receipt register.do carried with the order (its positions are the attempt's items);
   * null: the order carried none (no tax system configured, or no order: points covered the bill).
   */
  receipt_tax_system: Generated<TaxSystem | null>;
  /** The acquirer's action code of the order once it ended (why a card was declined); null: not told. */
  action_code: Generated<number | null>;
  /** The card the order was paid or declined with, as the acquirer masks it ('411111**1111'); null: none (fast payment). */
  masked_pan: Generated<string | null>;
  /** A held payment (its bill captures by hand): when the server releases the hold by itself; null: not held. */
  held_until: Generated<number | null>;
  /** What the acquirer held, kopecks (the payment's amount is what was captured); null: never held. */
  held_kopecks: Generated<number | null>;
  /** What the merchant's capture asked to take, kopecks, kept while deposit.do's answer is awaited. */
  capture_kopecks: Generated<number | null>;
  /** Why the hold was released: by the merchant, or its time ran out. */
  release_reason: Generated<'merchant' | 'expired' | null>;
  /** When the merchant was told that the hold ends soon (payment.hold_expiring); null: not yet. */
  hold_warned_at: Generated<number | null>;
}

/**
 * A position of an attempt as charged (chargedItems.ts; its price per unit as sent, its amount what it is charged): the bill's positions and the fee, lowered by the points, as the
 * receipt sent with the order lists them. Kept for what follows a payment: a refund names the positions it returns.
 */
export interface AttemptItemsTable extends PositionColumns {
  order_id: string;
  /** The receipt's positionId: 1, 2, … in the order sent. */
  position_id: number;
  /** The bill's position it charges (1, 2, …); null: the service fee. */
  bill_position: number | null;
}
export type AttemptItemRow = Selectable<AttemptItemsTable>;

/**
 * A refund of a payment: the merchant's (through its API, under an Idempotency-Key), or the automatic one of a payment
 * its bill could not keep (paid twice, paid after the bill closed). Pending until the acquirer's word; sent to the
 * acquirer at most once (`sent_at`), so an answer lost on the way is resolved by reading the order, never by asking again.
 */
export interface RefundsTable {
  /** `rf_` and hex digits that sort by when it was made (`rf_` and the order id for refunds older than the rows). */
  id: string;
  order_id: string;
  amount_kopecks: number;
  reason: string | null;
  kind: 'merchant' | 'automatic';
  /** The refund's state in its chart (lifecycle/refund.ts). */
  state: Generated<RefundState>;
  /** The merchant API's word for the state (lifecycle/refund.ts, REFUND_STATUS), written with it. */
  status: Generated<RefundStatus>;
  idempotency_key: string | null;
  /** How the acquirer was asked: refund.do, or reverse.do for a whole refund of an order not yet settled. */
  method: Generated<'refund' | 'reverse' | null>;
  /** When the request went to the acquirer (never again for this row). */
  sent_at: Generated<number | null>;
  /** What the acquirer's order had given back before this refund was sent: a lost answer is read against it. */
  acquirer_refunded_before: Generated<number | null>;
  /** The acquirer's answer: its error for a refusal, or how a lost answer was resolved. */
  acquirer_answer: Generated<string | null>;
  created_at: number;
  finished_at: Generated<number | null>;
}
export type RefundRow = Selectable<RefundsTable>;

/** A position a refund returns (the attempt's item by its positionId), with what of it goes back. */
export interface RefundItemsTable {
  refund_id: string;
  position_id: number;
  quantity_milli: number;
  amount_kopecks: number;
}
export type RefundItemRow = Selectable<RefundItemsTable>;

/**
 * Where a closing receipt stands: not yet sent; doReceipt went out and its answer is not kept (yet, or lost: the
 * gateway's list of the order's receipts settles it, never a second doReceipt); sent, its fate not yet read; registered;
 * failed for good (its error says why).
 */
export type ClosingReceiptState = 'unsent' | 'sent' | 'pending' | 'registered' | 'failed';

/**
 * The closing receipt (full settlement) of one acquirer order that took a prepayment for a bill handed over: one row per
 * order, so never two for one sale. `cart` is what doReceipt sends (its bundle and where the receipt goes), as JSON.
 */
export interface ClosingReceiptsTable {
  order_id: string;
  bill_oid: string;
  state: ClosingReceiptState;
  /** What the receipt settles: the order's prepaid positions as charged, less what its refunds gave back. */
  amount_kopecks: number;
  cart: string;
  /** The gateway's id of the receipt (the latest, once resent corrected); null until doReceipt's answer is known. */
  receipt_id: Generated<string | null>;
  /** The order's receipts at the gateway before doReceipt went out (JSON ids): a lost answer's receipt is the new one. */
  receipts_before: Generated<string | null>;
  /** How many times a failed receipt was sent again (retried or corrected). */
  resends: Generated<number>;
  /** Why it failed: the gateway's error, and what the server could not do about it. */
  error: Generated<string | null>;
  /** The gateway's recommendation with its error (2 or 3: correct the cart). */
  recommendation: Generated<number | null>;
  sent_at: Generated<number | null>;
  /** When the gateway may next be asked about it (its fate is read no sooner than the gateway asks). */
  due_at: Generated<number | null>;
  /** Someone is talking to the gateway about it until then (single flight across processes). */
  lease_until: Generated<number | null>;
  created_at: number;
  updated_at: number;
}
export type ClosingReceiptRow = Selectable<ClosingReceiptsTable>;

declare module '../store/database' {
  interface Database {
    closing_receipts: ClosingReceiptsTable;
    payment_attempts: PaymentAttemptsTable;
    attempt_items: AttemptItemsTable;
    refunds: RefundsTable;
    refund_items: RefundItemsTable;
  }
}

export type AttemptRow = Selectable<PaymentAttemptsTable>;

export type NewAttempt = Omit<Insertable<PaymentAttemptsTable>, 'state' | 'status' | 'created_at' | 'updated_at'>;
