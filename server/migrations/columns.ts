/**
 * What more than one migration writes alike: a table rebuilt writes its columns and indexes again, and they must come
 * out as the first time (test/server/store/migrationSql.test.ts holds every migration to its recorded SQL).
 */
import { sql, type CreateTableBuilder, type RawBuilder } from 'kysely';
import { notNull, type AnyDb } from '../store/migrator';

/** The payment attempts' columns as 0001 made them; the CHECK of their status is each migration's own. */
export const paymentAttemptColumns = <T extends string>(table: CreateTableBuilder<T>, statusCheck: RawBuilder<unknown>) =>
  table
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('bill_oid', 'text', (c) => c.notNull().references('bills.oid'))
    .addColumn('card_type_oid', 'text', (c) => c.notNull().references('payment_types.oid'))
    .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks >= 0`))
    .addColumn('commission_kopecks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('points_used', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`points_used >= 0`))
    .addColumn('email', 'text')
    .addColumn('user_oid', 'text')
    .addColumn('manager_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('created').check(statusCheck))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull);

/**
 * At most one pending attempt per bill, type and amounts: a double Pay, a retry or concurrent requests find the same
 * attempt instead of charging twice.
 */
export const onePendingAttempt = (db: AnyDb) =>
  db.schema
    .createIndex('one_pending_attempt')
    .unique()
    .on('payment_attempts')
    .columns(['bill_oid', 'card_type_oid', 'amount_kopecks', 'points_used'])
    .where(sql<boolean>`status = 'created'`)
    .execute();
