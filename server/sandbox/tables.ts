/**
 * The sandbox's tables: the fake parties' own records (the RBS fake's orders, the SMS.ru fake's texts and checks, the
 * webhook inbox). They share the database with the product but never its tables: the product learns of them only
 * through the protocols.
 */
import type { Generated, Selectable } from 'kysely';

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
  /** The fiscal receipt the order came with: its taxSystem and orderBundle (JSON) as register.do sent them; null: none. */
  tax_system: number | null;
  order_bundle: string | null;
  order_status: number;
  action_code: number;
  /** The card typed on the fake's form, masked as the acquirer answers it in cardAuthInfo; null: none yet. */
  masked_pan: string | null;
  qr_id: string | null;
  refunded_amount: number;
  /** What of each position its refunds returned: `{ "<positionId>": kopecks }` (JSON); null: none yet. */
  refunded_items: Generated<string | null>;
  /** Registered by registerPreAuth.do: paying holds the money (orderStatus 1) until deposit.do or reverse.do. */
  pre_auth: Generated<number>;
  /** What deposit.do took (or the payment, for an order paid at once), kopecks, and the positions it took. */
  deposited_amount: Generated<number>;
  deposited_bundle: Generated<string | null>;
  /** Unpaid: its session's end. Held: when the hold ends by itself (declinedByTimeout). */
  expires_at: number;
  created_at: number;
  updated_at: number;
}
export type RbsOrderRow = Selectable<SandboxRbsOrdersTable>;

/** The receipts the RBS fake's fiscal API was sent apart from a payment (doReceipt), as the gateway keeps them. */
export interface SandboxFiscalReceiptsTable {
  receipt_id: string;
  /** The acquirer's order id the receipt names. */
  order_id: string;
  /** The failed receipt this one corrects (doReceipt naming it); null: a first receipt. */
  orig_receipt_id: string | null;
  /** The orderBundle as sent (JSON). */
  order_bundle: string;
  /** Where it went: the e-mail or the phone. */
  contact: string;
  /** The fiscal API's receiptStatus: 3 registered, 4 failed, … */
  receipt_status: number;
  error_message: string | null;
  recommendation: number | null;
  created_at: number;
  updated_at: number;
}
export type SandboxFiscalReceiptRow = Selectable<SandboxFiscalReceiptsTable>;

/** The texts the sandbox's SMS.ru fake took: what `GET /sandbox/sms` shows (the phone's side of the line). */
export interface SandboxSmsruTextsTable {
  id: Generated<number>;
  sms_id: string;
  phone: string;
  text: string;
  /** The text's delivery status code at the fake (103 delivered, 106 not). */
  status_code: number;
  created_at: number;
}
export type FakeTextRow = Selectable<SandboxSmsruTextsTable>;

/** The call checks of the sandbox's SMS.ru fake, by its check_id. */
export interface SandboxSmsruChecksTable {
  check_id: string;
  phone: string;
  call_phone: string;
  /** 400 waiting for the call, 401 confirmed, 402 expired. */
  check_status: number;
  created_at: number;
  expires_at: number;
}
export type FakeCheckRow = Selectable<SandboxSmsruChecksTable>;

/** The webhooks the sandbox's inbox received, with whether their signature checked. */
export interface SandboxWebhooksTable {
  id: Generated<number>;
  webhook_id: string;
  type: string | null;
  body: string;
  valid: number;
  received_at: number;
}

declare module '../store/database' {
  interface Database {
    sandbox_rbs_orders: SandboxRbsOrdersTable;
    sandbox_fiscal_receipts: SandboxFiscalReceiptsTable;
    sandbox_smsru_texts: SandboxSmsruTextsTable;
    sandbox_smsru_checks: SandboxSmsruChecksTable;
    sandbox_webhooks: SandboxWebhooksTable;
  }
}

/** The letters the sandbox's SMTP server took: what `GET /sandbox/mail` shows (the mailbox's side). */
export interface SandboxMailTable {
  id: Generated<number>;
  message_id: string | null;
  mail_from: string;
  /** The envelope's recipients, lower case, separated by commas. */
  rcpt_to: string;
  subject: string;
  text: string;
  html: string | null;
  received_at: number;
}
export type SandboxMailRow = Selectable<SandboxMailTable>;

declare module '../store/database' {
  interface Database {
    sandbox_mail: SandboxMailTable;
  }
}
