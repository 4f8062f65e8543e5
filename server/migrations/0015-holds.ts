/**
 * Deposits: a bill may hold the money on the card first and take it later (`capture` manual), its payment keeping
 * when the server releases the hold by itself, what was held, what the merchant asked to take, why a hold ended and
 * when the merchant was warned that it ends soon. The sandbox acquirer's orders keep whether they only hold, and what
 * was taken at the capture with the positions of its receipt.
 */
import { sql } from 'kysely';
import type { Migration } from '../store/migrator';

export const migration: Migration = {
  up: async (db) => {
    await db.schema
      .alterTable('bills')
      .addColumn('capture', 'text', (c) => c.notNull().defaultTo('automatic').check(sql`capture IN ('automatic', 'manual')`))
      .execute();
    await db.schema.alterTable('payment_attempts').addColumn('held_until', 'bigint').execute();
    await db.schema.alterTable('payment_attempts').addColumn('held_kopecks', 'bigint').execute();
    await db.schema.alterTable('payment_attempts').addColumn('capture_kopecks', 'bigint').execute();
    await db.schema.alterTable('payment_attempts').addColumn('release_reason', 'text', (c) => c.check(sql`release_reason IN ('merchant', 'expired')`)).execute();
    await db.schema.alterTable('payment_attempts').addColumn('hold_warned_at', 'bigint').execute();
    await db.schema.alterTable('sandbox_rbs_orders').addColumn('pre_auth', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('sandbox_rbs_orders').addColumn('deposited_amount', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('sandbox_rbs_orders').addColumn('deposited_bundle', 'text').execute();
    // Deposited orders made before paid all their amount.
    await sql`UPDATE sandbox_rbs_orders SET deposited_amount = amount WHERE order_status IN (2, 4)`.execute(db);
    // The sweep's work: holds to release or warn of, by when.
    await db.schema.createIndex('attempts_held_until').on('payment_attempts').column('held_until').where(sql<boolean>`held_until IS NOT NULL`).execute();
  },
};
