/**
 * Refunds as rows of their own: a payment has many, and what it has given back is what its succeeded rows add up to.
 * The merchant's refunds and the automatic one of a payment its bill could not keep (paid twice, paid after the bill
 * closed) are the same kind of row; the attempt's old refund flag becomes such a row and is dropped. A refund of an
 * order that carried a fiscal receipt names the positions it returns; points given back are a ledger entry naming the
 * refund. The sandbox acquirer's orders record the positions refunded.
 */
import { sql } from 'kysely';
import { notNull, type Migration } from '../store/migrator';

export const migration: Migration = {
  up: async (db) => {
    await db.schema
      .createTable('refunds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_id', 'text', (c) => c.notNull().references('payment_attempts.order_id'))
      .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks > 0`))
      .addColumn('reason', 'text')
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('merchant', 'automatic')`))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status IN ('pending', 'succeeded', 'failed')`))
      .addColumn('idempotency_key', 'text')
      .addColumn('method', 'text', (c) => c.check(sql`method IN ('refund', 'reverse')`))
      .addColumn('sent_at', 'bigint')
      .addColumn('acquirer_refunded_before', 'bigint')
      .addColumn('acquirer_answer', 'text')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('refunds_by_order').on('refunds').columns(['order_id', 'created_at']).execute();
    // The sweeper's work: refunds not yet settled.
    await db.schema.createIndex('refunds_pending').on('refunds').column('created_at').where(sql<boolean>`status = 'pending'`).execute();
    // A payment its bill could not keep is given back once.
    await db.schema.createIndex('refunds_one_automatic').unique().on('refunds').column('order_id').where(sql<boolean>`kind = 'automatic'`).execute();

    await db.schema
      .createTable('refund_items')
      .addColumn('refund_id', 'text', (c) => c.notNull().references('refunds.id').onDelete('cascade'))
      .addColumn('position_id', 'integer', notNull)
      .addColumn('quantity_milli', 'bigint', notNull)
      .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks > 0`))
      .addPrimaryKeyConstraint('refund_items_pk', ['refund_id', 'position_id'])
      .execute();

    await db.schema.alterTable('points_ledger').addColumn('refund_id', 'text').execute();
    await db.schema.createIndex('ledger_by_refund').unique().on('points_ledger').column('refund_id').where(sql<boolean>`refund_id IS NOT NULL`).execute();

    // The attempts refunded under the old flag: due → a pending row (the gateway makes it), done → a succeeded one.
    const reason = 'The bill could not keep this payment (already paid, or closed): its money goes back';
    await sql`
      INSERT INTO refunds (id, order_id, amount_kopecks, reason, kind, status, created_at, finished_at)
      SELECT 'rf_' || order_id, order_id, amount_kopecks, ${reason}, 'automatic',
             CASE WHEN refund_state = 'done' THEN 'succeeded' ELSE 'pending' END,
             updated_at, refunded_at
      FROM payment_attempts
      WHERE refund_state IS NOT NULL AND amount_kopecks > 0`.execute(db);
    await db.schema.dropIndex('attempts_refund_due').execute();
    await db.schema.alterTable('payment_attempts').dropColumn('refund_state').execute();
    await db.schema.alterTable('payment_attempts').dropColumn('refunded_at').execute();

    await db.schema.alterTable('sandbox_rbs_orders').addColumn('refunded_items', 'text').execute();
  },
};
