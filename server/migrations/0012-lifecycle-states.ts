/**
 * The money's charts: a payment attempt, a refund and a bill each keep their state in their chart (server/lifecycle/)
 * in a `state` column of its own; `status` (and a bill's `closed_as`) stay, the merchant API's words for it, written
 * with it. No CHECK on `state`: the charts name the states, and the states to come (held, captured, released, partly
 * paid, handed over) need no table rebuilt. Every row gets the state its columns tell.
 */
import { sql } from 'kysely';
import type { Migration } from '../store/migrator';

export const migration: Migration = {
  up: async (db) => {
    await db.schema.alterTable('payment_attempts').addColumn('state', 'text', (c) => c.notNull().defaultTo('created')).execute();
    await db.schema.alterTable('refunds').addColumn('state', 'text', (c) => c.notNull().defaultTo('pending')).execute();
    await db.schema.alterTable('bills').addColumn('state', 'text', (c) => c.notNull().defaultTo('open')).execute();

    // A refund sent whose answer is not in is `sent`; the others' status is their state.
    await sql`UPDATE refunds SET state = CASE WHEN status = 'pending' AND sent_at IS NOT NULL THEN 'sent' ELSE status END`.execute(db);
    await sql`UPDATE bills SET state = CASE WHEN status = 'paid' THEN 'paid' WHEN closed_as IS NOT NULL THEN closed_as ELSE 'open' END`.execute(db);
    // Waiting: by what the acquirer was told. Paid: by what its refunds gave back. Refunded: by whether its automatic
    // refund is still to succeed. (A declined attempt stays declined: whether its session ran out was never kept.)
    await sql`
      UPDATE payment_attempts SET state = CASE
        WHEN status = 'created' AND register_started_at IS NULL THEN 'created'
        WHEN status = 'created' AND acquirer_order_id IS NULL THEN 'registering'
        WHEN status = 'created' THEN 'registered'
        WHEN status = 'success' AND amount_kopecks = 0 THEN 'coveredByPoints'
        WHEN status = 'success' AND (SELECT COALESCE(SUM(r.amount_kopecks), 0) FROM refunds r WHERE r.order_id = payment_attempts.order_id AND r.status = 'succeeded') >= amount_kopecks THEN 'fullyRefunded'
        WHEN status = 'success' AND EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = payment_attempts.order_id AND r.status = 'succeeded') THEN 'partlyRefunded'
        WHEN status = 'success' THEN 'paid'
        WHEN status = 'refunded' AND EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = payment_attempts.order_id AND r.kind = 'automatic' AND r.status <> 'succeeded') THEN 'givingBack'
        WHEN status = 'refunded' THEN 'givenBack'
        ELSE 'declined'
      END`.execute(db);
  },
};
