import { sql } from 'kysely';
import { notNull, withId, type Migration } from '../store/migrator';
import { outboxDueIndex, outboxSenderColumns, withKey } from './columns';

// The merchant API. A bill may be closed without payment (cancelled by the merchant, or expired at its expiresAt) and
// may name where the payer returns to; when it was paid. The answers of POSTs by their Idempotency-Key; the webhook
// outbox with every delivery attempt; settings the server generates once (the sandbox's development API key and
// webhook secret); the sandbox's webhook inbox.
export const migration: Migration = {
  up: async (db) => {
    await db.schema.alterTable('bills').addColumn('expires_at', 'bigint').execute();
    await db.schema.alterTable('bills').addColumn('return_url', 'text').execute();
    await db.schema.alterTable('bills').addColumn('paid_at', 'bigint').execute();
    // The store's status stays open | paid (its CHECK cannot change on SQLite); a closed open bill is not payable.
    await db.schema.alterTable('bills').addColumn('closed_as', 'text', (c) => c.check(sql`closed_as IN ('cancelled', 'expired')`)).execute();
    await db.schema.alterTable('bills').addColumn('closed_at', 'bigint').execute();
    // The expiry sweep looks for open bills whose time has come.
    await db.schema.createIndex('bills_by_expiry').on('bills').column('expires_at').where(sql<boolean>`expires_at IS NOT NULL AND closed_as IS NULL`).execute();
    // Reconciliation pages through attempts by (created_at, order_id).
    await db.schema.createIndex('payment_attempts_by_creation').on('payment_attempts').columns(['created_at', 'order_id']).execute();
    await db.schema.createIndex('points_ledger_by_customer_id').on('points_ledger').columns(['cust_no', 'id']).execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('key_id', 'text', notNull)
      .addColumn('idempotency_key', 'text', notNull)
      .addColumn('fingerprint', 'text', notNull)
      .addColumn('status_code', 'integer', notNull)
      .addColumn('body', 'text', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['key_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_by_creation').on('idempotency_keys').column('created_at').execute();

    await withKey(db.schema.createTable('webhook_events'), 'id')
      .addColumn('type', 'text', notNull)
      .addColumn('payload', 'text', notNull)
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending').check(sql`state IN ('pending', 'delivered', 'failed')`))
      .$call(outboxSenderColumns)
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('delivered_at', 'bigint')
      .execute();
    await outboxDueIndex(db, 'webhook_events');

    await withId(db, db.schema.createTable('webhook_attempts'))
      .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
      .addColumn('url', 'text', notNull)
      .addColumn('attempted_at', 'bigint', notNull)
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', notNull)
      .execute();
    await db.schema.createIndex('webhook_attempts_by_event').on('webhook_attempts').columns(['event_id', 'id']).execute();

    await withKey(db.schema.createTable('server_settings'), 'name')
      .addColumn('value', 'text', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .execute();

    await withId(db, db.schema.createTable('sandbox_webhooks'))
      .addColumn('webhook_id', 'text', notNull)
      .addColumn('type', 'text')
      .addColumn('body', 'text', notNull)
      .addColumn('valid', 'integer', notNull)
      .addColumn('received_at', 'bigint', notNull)
      .execute();
  },
};
