/**
 * A bill paid in parts: the least one payment of it may pay (null: one payment of the whole, as every bill before),
 * the most one payment by a way to pay may take (null: no cap), and the part of its bill each payment pays (null: the
 * whole bill, as every payment before). A partly paid bill's state is its chart's (`partlyPaid`); no column holds it.
 */
import type { Migration } from '../store/migrator';

export const migration: Migration = {
  up: async (db) => {
    await db.schema.alterTable('bills').addColumn('part_minimum_kopecks', 'bigint').execute();
    await db.schema.alterTable('payment_types').addColumn('maximum_kopecks', 'bigint').execute();
    await db.schema.alterTable('payment_attempts').addColumn('part_kopecks', 'bigint').execute();
  },
};
