/**
 * The tables as the query layer sees them, one interface per table (Kysely's `Database` type). Money is integer
 * kopecks and every time is epoch milliseconds (UTC) on both engines: INTEGER on SQLite, bigint on PostgreSQL, read
 * back as JS numbers (store/engines.ts refuses a bigint beyond 2^53). Flags are 0/1 integers on both, so a row reads
 * the same whichever engine holds it.
 *
 * A new table: its interface here, a line in `Database`, a migration in migrations.ts, its queries in store.ts.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

export type PaymentStatus = 'created' | 'success' | 'declined' | 'refunded';
export type CodePurpose = 'forgot-password' | 'register' | 'use-points';
export type PaymentTypeCode = 'ALL' | 'SBP' | 'SberPaySite' | 'SberPaySiteP' | 'AllSberP';

export interface BillsTable {
  /** The merchant's id of the bill: the merchant API's name for it, never the page's. */
  oid: string;
  /**
   * The bill's public link id (`/pay/<link_id>`), the page's only name for it: unguessable, or for a demo bill and its
   * sandbox copies the objectOID itself (server/payLinks.ts). Unique; every bill has one.
   */
  link_id: string;
  product: 'realty' | 'auto';
  object_type: string;
  purpose: string;
  sum_kopecks: number;
  client_name: string;
  client_phone: string | null;
  client_email: string | null;
  bill_email: string | null;
  cust_no: string | null;
  no_reg: number;
  points_enabled: number;
  useful_points_limit: number;
  status: 'open' | 'paid';
  paid_order_id: string | null;
  copied_from: string | null;
  created_at: number;
  /** When the bill stops being payable (null: never); the expiry sweep then closes it as 'expired'. */
  expires_at: number | null;
  /** Where the payer goes back to the merchant's shop after paying (null: nowhere). */
  return_url: string | null;
  paid_at: number | null;
  /** An open bill closed without payment: cancelled by the merchant or expired (null: still payable). */
  closed_as: 'cancelled' | 'expired' | null;
  closed_at: number | null;
}

export interface PaymentTypesTable {
  oid: string;
  bill_oid: string;
  position: number;
  code: PaymentTypeCode;
  name: string;
  commission_kopecks: number;
  show_aggregator_offer: number;
  show_executer_offer: number;
}

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
}

/** One call to the acquirer, for support ("what happened to my payment"): never the credentials. */
export interface AcquirerExchangesTable {
  id: Generated<number>;
  order_id: string | null;
  method: string;
  request: string;
  answer: string | null;
  error: string | null;
  http_status: number | null;
  ms: number;
  created_at: number;
}

/** The sandbox's RBS fake: its own orders, as the acquirer keeps them (never the product's attempts). */
export interface SandboxRbsOrdersTable {
  order_id: string;
  order_number: string;
  amount: number;
  currency: string;
  return_url: string;
  fail_url: string | null;
  description: string | null;
  email: string | null;
  json_params: string | null;
  callback_url: string | null;
  order_status: number;
  action_code: number;
  qr_id: string | null;
  refunded_amount: number;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

export interface PointsLedgerTable {
  id: Generated<number>;
  cust_no: string;
  delta: number;
  reason: string;
  order_id: string | null;
  created_at: number;
}

export interface SessionsTable {
  id: string;
  csrf_token: string;
  account_id: number | null;
  created_at: number;
  seen_at: number;
  /** What checkUser handed out for get-user; null until asked, cleared on sign-in and logout. */
  user_token: string | null;
}

export interface LoyaltyAccountsTable {
  id: Generated<number>;
  oid: string;
  phone: string;
  surname: string;
  name: string;
  patronymic: string;
  email: string | null;
  picture: string | null;
  password_hash: string;
  created_at: number;
}

export interface SmsCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: CodePurpose;
  /** The customer whose points a use-points code confirms; null for the other purposes. */
  cust_no: string | null;
  salt: string;
  code_hash: string;
  wrong_tries: number;
  state: 'active' | 'used' | 'void';
  created_at: number;
  expires_at: number;
  /** Who asked for the code: the session (null once it is gone) and the client's address. */
  session_id: string | null;
  client_address: string | null;
}

export interface PhoneGuardsTable {
  phone: string;
  wrong_streak: number;
  blocked_until: number;
  captcha_required: number;
  updated_at: number;
}

export interface PhoneVerificationsTable {
  id: Generated<number>;
  session_id: string;
  phone: string;
  purpose: CodePurpose;
  cust_no: string | null;
  verified_at: number;
  consumed_at: number | null;
}

export interface SmsOutboxTable {
  id: Generated<number>;
  phone: string;
  text: string;
  created_at: number;
}

export interface FreeCallsTable {
  id: Generated<number>;
  session_id: string;
  phone: string;
  locked_at: number;
  expires_at: number;
  called_at: number | null;
}

export interface IdempotencyKeysTable {
  /** Which API key asked (a hash prefix, never the key). */
  key_id: string;
  idempotency_key: string;
  /** Method, path and the body's hash: the same key with another request is refused. */
  fingerprint: string;
  status_code: number;
  body: string;
  created_at: number;
}

export type WebhookEventType = 'bill.paid' | 'bill.cancelled' | 'bill.expired' | 'payment.succeeded' | 'payment.declined' | 'payment.refunded';

export interface WebhookEventsTable {
  /** The Standard Webhooks message id (webhook-id), the same on every retry. */
  id: string;
  type: WebhookEventType;
  /** The exact body sent, `{ id, type, createdAt, data }`. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  /** Delivery attempts so far. */
  attempts: number;
  next_attempt_at: number;
  /** A worker holds the event until then; after it, another may take it (the first died). */
  lease_until: number | null;
  created_at: number;
  delivered_at: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  event_id: string;
  url: string;
  attempted_at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface ServerSettingsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface SandboxWebhooksTable {
  id: Generated<number>;
  webhook_id: string;
  type: string | null;
  body: string;
  valid: number;
  received_at: number;
}

export interface Database {
  bills: BillsTable;
  payment_types: PaymentTypesTable;
  payment_attempts: PaymentAttemptsTable;
  points_ledger: PointsLedgerTable;
  sessions: SessionsTable;
  loyalty_accounts: LoyaltyAccountsTable;
  sms_codes: SmsCodesTable;
  phone_guards: PhoneGuardsTable;
  phone_verifications: PhoneVerificationsTable;
  sms_outbox: SmsOutboxTable;
  free_calls: FreeCallsTable;
  acquirer_exchanges: AcquirerExchangesTable;
  sandbox_rbs_orders: SandboxRbsOrdersTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  server_settings: ServerSettingsTable;
  sandbox_webhooks: SandboxWebhooksTable;
}

/** Rows as they are read. */
export type BillRow = Selectable<BillsTable>;
export type PaymentTypeRow = Selectable<PaymentTypesTable>;
export type AttemptRow = Selectable<PaymentAttemptsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type AccountRow = Selectable<LoyaltyAccountsTable>;
export type SmsCodeRow = Selectable<SmsCodesTable>;
export type PhoneGuardRow = Selectable<PhoneGuardsTable>;
export type VerificationRow = Selectable<PhoneVerificationsTable>;
export type OutboxRow = Selectable<SmsOutboxTable>;
export type FreeCallRow = Selectable<FreeCallsTable>;
export type LedgerEntry = Insertable<PointsLedgerTable>;
export type ExchangeRow = Selectable<AcquirerExchangesTable>;
export type RbsOrderRow = Selectable<SandboxRbsOrdersTable>;
export type LedgerRow = Selectable<PointsLedgerTable>;
export type IdempotencyRow = Selectable<IdempotencyKeysTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type SandboxWebhookRow = Selectable<SandboxWebhooksTable>;
