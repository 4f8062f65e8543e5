import { sql } from 'kysely';
import { legacy, notNull, withId } from '../store/migrator';

// Bills, their payment types, payment attempts, sessions, loyalty accounts, the points ledger.
export const migration = legacy(1, async (db) => {
  await withId(db, db.schema.createTable('loyalty_accounts'))
    .addColumn('oid', 'text', (c) => c.notNull().unique())
    .addColumn('phone', 'text', (c) => c.notNull().unique())
    .addColumn('surname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('patronymic', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text')
    .addColumn('picture', 'text')
    .addColumn('password_hash', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .execute();

  await db.schema
    .createTable('bills')
    .addColumn('oid', 'text', (c) => c.primaryKey())
    .addColumn('product', 'text', (c) => c.notNull().check(sql`product IN ('realty', 'auto')`))
    .addColumn('object_type', 'text', (c) => c.notNull().defaultTo('bill'))
    .addColumn('purpose', 'text', notNull)
    .addColumn('sum_kopecks', 'bigint', (c) => c.notNull().check(sql`sum_kopecks > 0`))
    .addColumn('client_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('client_phone', 'text')
    .addColumn('client_email', 'text')
    .addColumn('bill_email', 'text')
    .addColumn('cust_no', 'text')
    .addColumn('no_reg', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('points_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('useful_points_limit', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`useful_points_limit >= 0`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status IN ('open', 'paid')`))
    .addColumn('paid_order_id', 'text')
    .addColumn('copied_from', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .execute();

  await db.schema
    .createTable('payment_types')
    .addColumn('oid', 'text', (c) => c.primaryKey())
    .addColumn('bill_oid', 'text', (c) => c.notNull().references('bills.oid').onDelete('cascade'))
    .addColumn('position', 'integer', notNull)
    .addColumn('code', 'text', (c) => c.notNull().check(sql`code IN ('ALL', 'SBP', 'SberPaySite', 'SberPaySiteP', 'AllSberP')`))
    .addColumn('name', 'text', notNull)
    .addColumn('commission_kopecks', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`commission_kopecks >= 0`))
    .addColumn('show_aggregator_offer', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('show_executer_offer', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('payment_types_by_bill').on('payment_types').columns(['bill_oid', 'position']).execute();

  await db.schema
    .createTable('payment_attempts')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('bill_oid', 'text', (c) => c.notNull().references('bills.oid'))
    .addColumn('card_type_oid', 'text', (c) => c.notNull().references('payment_types.oid'))
    .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks >= 0`))
    .addColumn('commission_kopecks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('points_used', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`points_used >= 0`))
    .addColumn('email', 'text')
    .addColumn('user_oid', 'text')
    .addColumn('manager_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created').check(sql`status IN ('created', 'success', 'declined')`))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  // At most one pending attempt per bill, type and amounts: a double Pay, a retry or concurrent requests find the
  // same attempt instead of charging twice.
  await db.schema
    .createIndex('one_pending_attempt')
    .unique()
    .on('payment_attempts')
    .columns(['bill_oid', 'card_type_oid', 'amount_kopecks', 'points_used'])
    .where(sql<boolean>`status = 'created'`)
    .execute();

  await withId(db, db.schema.createTable('points_ledger'))
    .addColumn('cust_no', 'text', notNull)
    .addColumn('delta', 'bigint', notNull)
    .addColumn('reason', 'text', notNull)
    .addColumn('order_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('points_ledger_by_customer').on('points_ledger').column('cust_no').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('csrf_token', 'text', notNull)
    .addColumn('account_id', 'bigint', (c) => c.references('loyalty_accounts.id'))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('seen_at', 'bigint', notNull)
    .execute();
});
