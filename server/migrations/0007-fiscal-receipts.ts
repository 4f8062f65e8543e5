/**
 * Fiscal receipts: a bill's positions as the merchant gave them, each attempt's positions as charged (the receipt sent
 * with its order, kept for a refund to name), the tax system that receipt carried, and the sandbox acquirer's record of
 * the receipt each order came with.
 */
import type { CreateTableBuilder } from 'kysely';
import { notNull, type Migration } from '../store/migrator';

/** What a position of a receipt is, the same in a bill's positions and an attempt's (quantity in thousandths). */
const withPositionColumns = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table
    .addColumn('name', 'text', notNull)
    .addColumn('quantity_milli', 'bigint', notNull)
    .addColumn('price_kopecks', 'bigint', notNull)
    .addColumn('amount_kopecks', 'bigint', notNull)
    .addColumn('vat', 'text', notNull)
    .addColumn('payment_method', 'text', notNull)
    .addColumn('payment_object', 'text', notNull)
    .addColumn('measure', 'text');

export const migration: Migration = {
  up: async (db) => {
    const billItems = db.schema
      .createTable('bill_items')
      .addColumn('bill_oid', 'text', (c) => c.notNull().references('bills.oid').onDelete('cascade'))
      .addColumn('position', 'integer', notNull);
    await withPositionColumns(billItems)
      .addPrimaryKeyConstraint('bill_items_pk', ['bill_oid', 'position'])
      .execute();

    const attemptItems = db.schema
      .createTable('attempt_items')
      .addColumn('order_id', 'text', (c) => c.notNull().references('payment_attempts.order_id').onDelete('cascade'))
      .addColumn('position_id', 'integer', notNull)
      .addColumn('bill_position', 'integer');
    await withPositionColumns(attemptItems)
      .addPrimaryKeyConstraint('attempt_items_pk', ['order_id', 'position_id'])
      .execute();

    await db.schema.alterTable('payment_attempts').addColumn('receipt_tax_system', 'text').execute();
    await db.schema.alterTable('sandbox_rbs_orders').addColumn('tax_system', 'integer').execute();
    await db.schema.alterTable('sandbox_rbs_orders').addColumn('order_bundle', 'text').execute();
  },
};
