import { sql } from 'kysely';
import { isPostgres, notNull, withId, type Migration } from '../store/migrator';
import { onePendingAttempt, paymentAttemptColumns } from './columns';

// The acquirer gateway. An attempt keeps what the acquirer answered (its orderId, the card form, the fast-payment QR),
// when it was last asked, a lease for "someone is asking it right now", its expiry and its refund; the status gains
// 'refunded' (a second payment of a paid bill, returned). Every exchange with the acquirer is kept for support. The
// sandbox's RBS fake keeps its own orders, never the product's attempts.
export const migration: Migration = {
  up: async (db) => {
    const NEW_COLUMNS: [string, 'text' | 'bigint'][] = [
      ['acquirer_order_id', 'text'],
      ['form_url', 'text'],
      ['sbp_qrc_id', 'text'],
      ['sbp_payload', 'text'],
      ['sbp_image', 'text'],
      ['register_started_at', 'bigint'],
      ['acquirer_checked_at', 'bigint'],
      ['lease_until', 'bigint'],
      ['expires_at', 'bigint'],
      ['refund_state', 'text'],
      ['refunded_at', 'bigint'],
    ];
    if (isPostgres(db)) {
      await sql`ALTER TABLE payment_attempts DROP CONSTRAINT payment_attempts_status_check`.execute(db);
      await sql`ALTER TABLE payment_attempts ADD CONSTRAINT payment_attempts_status_check CHECK (status IN ('created', 'success', 'declined', 'refunded'))`.execute(db);
      for (const [name, type] of NEW_COLUMNS) await db.schema.alterTable('payment_attempts').addColumn(name, type).execute();
    } else {
      // SQLite cannot change a CHECK in place: the table is rebuilt (SQLite's documented twelve steps; nothing
      // references payment_attempts by foreign key, so no other table is touched), its index made again.
      let next = paymentAttemptColumns(db.schema.createTable('payment_attempts_next'), sql`status IN ('created', 'success', 'declined', 'refunded')`);
      for (const [name, type] of NEW_COLUMNS) next = next.addColumn(name, type);
      await next.execute();
      const old = [
        'order_id', 'bill_oid', 'card_type_oid', 'amount_kopecks', 'commission_kopecks', 'points_used', 'email', 'user_oid', 'manager_id', 'status', 'created_at', 'updated_at',
      ].join(', ');
      await sql.raw(`INSERT INTO payment_attempts_next (${old}) SELECT ${old} FROM payment_attempts`).execute(db);
      await db.schema.dropTable('payment_attempts').execute();
      await db.schema.alterTable('payment_attempts_next').renameTo('payment_attempts').execute();
      await onePendingAttempt(db);
    }
    // The result page polls with our id, the acquirer's orderId (appended to the return URL) or the QR's id.
    await db.schema.createIndex('attempts_by_acquirer_order').unique().on('payment_attempts').column('acquirer_order_id').execute();
    await db.schema.createIndex('attempts_by_qrc').unique().on('payment_attempts').column('sbp_qrc_id').execute();
    await db.schema.createIndex('attempts_by_bill').on('payment_attempts').columns(['bill_oid', 'created_at']).execute();
    // The sweeper's work: pending attempts and refunds not yet made.
    await db.schema.createIndex('attempts_pending').on('payment_attempts').column('updated_at').where(sql<boolean>`status = 'created'`).execute();
    await db.schema.createIndex('attempts_refund_due').on('payment_attempts').column('updated_at').where(sql<boolean>`refund_state = 'due'`).execute();

    await withId(db, db.schema.createTable('acquirer_exchanges'))
      .addColumn('order_id', 'text')
      .addColumn('method', 'text', notNull)
      .addColumn('request', 'text', notNull)
      .addColumn('answer', 'text')
      .addColumn('error', 'text')
      .addColumn('http_status', 'integer')
      .addColumn('ms', 'integer', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('acquirer_exchanges_by_order').on('acquirer_exchanges').columns(['order_id', 'id']).execute();

    await db.schema
      .createTable('sandbox_rbs_orders')
      .addColumn('order_id', 'text', (c) => c.primaryKey())
      .addColumn('order_number', 'text', (c) => c.notNull().unique())
      .addColumn('amount', 'bigint', notNull)
      .addColumn('currency', 'text', notNull)
      .addColumn('return_url', 'text', notNull)
      .addColumn('fail_url', 'text')
      .addColumn('description', 'text')
      .addColumn('email', 'text')
      .addColumn('json_params', 'text')
      .addColumn('callback_url', 'text')
      .addColumn('order_status', 'integer', notNull)
      .addColumn('action_code', 'integer', notNull)
      .addColumn('qr_id', 'text', (c) => c.unique())
      .addColumn('refunded_amount', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'bigint', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
  },
};
