/**
 * The payments table: a payment attempt is one try to pay a bill by one payment type, for an amount, with points. Its
 * acquirer columns (the order at the acquirer, the lease, the refund) are written by the acquirer gateway
 * (acquirer/attempts.ts).
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { TaxSystem } from '../billing/fiscalCodes';
import type { PositionColumns } from '../billing/tables';

export type PaymentStatus = 'created' | 'success' | 'declined' | 'refunded';

export interface PaymentAttemptsTable {
  order_id: string;
  bill_oid: string;
  card_type_oid: string;
  amount_kopecks: number;
  commission_kopecks: number;
  points_used: number;
  email: string | null;
  user_oid: string | null;
  manager_id: string | null;
  status: PaymentStatus;
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
  /** A refunded attempt's refund at the acquirer: 'due' until refund.do/reverse.do succeeded, then 'done'. */
  refund_state: Generated<'due' | 'done' | null>;
  refunded_at: Generated<number | null>;
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

declare module '../store/database' {
  interface Database {
    payment_attempts: PaymentAttemptsTable;
    attempt_items: AttemptItemsTable;
  }
}

export type AttemptRow = Selectable<PaymentAttemptsTable>;

export type NewAttempt = Omit<Insertable<PaymentAttemptsTable>, 'status' | 'created_at' | 'updated_at'>;
