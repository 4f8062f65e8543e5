/** The merchant tables: the answers kept by Idempotency-Key, the webhook outbox and every delivery attempt. */
import type { Generated, Selectable } from 'kysely';

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
export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export type WebhookEventType =
  | 'bill.partially_paid'
  | 'bill.paid'
  | 'bill.cancelled'
  | 'bill.expired'
  | 'payment.succeeded'
  | 'payment.declined'
  | 'payment.refunded'
  | 'payment.held'
  | 'payment.released'
  | 'payment.hold_expiring'
  | 'refund.succeeded'
  | 'refund.failed'
  | 'receipt.registered'
  | 'receipt.failed';

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
  /** The request whose change the event tells of (its X-Request-Id); null for a sweep's own (an expired bill). */
  request_id: string | null;
  /** The bill the event tells of (its data's objectOID); null for events made before this was kept. */
  bill_oid: Generated<string | null>;
}
export type WebhookEventRow = Selectable<WebhookEventsTable>;

export interface WebhookAttemptsTable {
  id: Generated<number>;
  event_id: string;
  url: string;
  attempted_at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** The event's request id, sent along as X-Request-Id. */
  request_id: string | null;
}
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

declare module '../store/database' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
    webhook_events: WebhookEventsTable;
    webhook_attempts: WebhookAttemptsTable;
  }
}
