/**
 * What the payer is told when a payment ends: the acquirer's action code of the attempt's order (why a card was
 * declined) and the card as the acquirer masks it (the receipt's card line), and the sandbox acquirer's record of the
 * card each order was paid or declined with.
 */
import type { Migration } from '../store/migrator';

export const migration: Migration = {
  up: async (db) => {
    await db.schema.alterTable('payment_attempts').addColumn('action_code', 'integer').execute();
    await db.schema.alterTable('payment_attempts').addColumn('masked_pan', 'text').execute();
    await db.schema.alterTable('sandbox_rbs_orders').addColumn('masked_pan', 'text').execute();
  },
};
