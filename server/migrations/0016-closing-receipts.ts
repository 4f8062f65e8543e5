/**
 * The closing receipt at handover: when the merchant hands the goods over, each acquirer order that took a prepayment
 * for the bill gets one full-settlement receipt (`closing_receipts`, one row per order: never two for one sale), sent
 * apart from any payment through the acquirer's fiscal API; the bill keeps when it was handed over. The sandbox's
 * acquirer keeps the receipts it was sent (`sandbox_fiscal_receipts`).
 */
import { sql } from 'kysely';
import { notNull, type Migration } from '../store/migrator';
import { withKey } from './columns';

export const migration: Migration = {
  up: async (db) => {
    await db.schema.alterTable('bills').addColumn('handed_over_at', 'bigint').execute();

    await withKey(db.schema.createTable('closing_receipts'), 'order_id')
      .addColumn('bill_oid', 'text', (c) => c.notNull().references('bills.oid'))
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('unsent', 'sent', 'pending', 'registered', 'failed')`))
      .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks > 0`))
      .addColumn('cart', 'text', notNull)
      .addColumn('receipt_id', 'text')
      .addColumn('receipts_before', 'text')
      .addColumn('resends', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('recommendation', 'integer')
      .addColumn('sent_at', 'bigint')
      .addColumn('due_at', 'bigint')
      .addColumn('lease_until', 'bigint')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('closing_receipts_by_bill').on('closing_receipts').column('bill_oid').execute();
    // The fiscal worker's work: receipts not yet settled, by when they are due.
    await db.schema.createIndex('closing_receipts_due').on('closing_receipts').column('due_at').where(sql<boolean>`state IN ('unsent', 'sent', 'pending')`).execute();

    await withKey(db.schema.createTable('sandbox_fiscal_receipts'), 'receipt_id')
      .addColumn('order_id', 'text', notNull)
      .addColumn('orig_receipt_id', 'text')
      .addColumn('order_bundle', 'text', notNull)
      .addColumn('contact', 'text', notNull)
      .addColumn('receipt_status', 'integer', notNull)
      .addColumn('error_message', 'text')
      .addColumn('recommendation', 'integer')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('sandbox_fiscal_receipts_by_order').on('sandbox_fiscal_receipts').column('order_id').execute();
  },
};
