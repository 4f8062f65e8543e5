/**
 * The three migrations of the user_version era, before the store used Kysely's migrator: bills, payments, sessions,
 * accounts and the ledger; the SMS codes and what guards them; who asked for each code. They are one file because they
 * are one piece of history (each `legacy(N, …)`: a SQLite file of that era counts it as applied by its
 * `PRAGMA user_version`); every later migration is a file of its own.
 */
import { sql, type Kysely } from 'kysely';
import { legacy, notNull, withId } from '../store/migrator';
import { onePendingAttempt, paymentAttemptColumns } from './columns';

/** `0001-bills-payments-sessions`: bills, their payment types, payment attempts, sessions, accounts, the points ledger. */
export const billsPaymentsSessions = legacy(1, async (db) => {
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

  await paymentAttemptColumns(db.schema.createTable('payment_attempts'), sql`status IN ('created', 'success', 'declined')`).execute();
  await onePendingAttempt(db);

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

/**
 * `0002-codes-guards-outbox-free-calls`: SMS codes (hashed), per-phone guards, phone verifications of a session, the
 * SMS outbox, free calls, and the token checkUser hands out for get-user.
 */
export const codesGuardsOutboxFreeCalls = legacy(2, async (db) => {
  await withId(db, db.schema.createTable('sms_codes'))
    .addColumn('phone', 'text', notNull)
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose IN ('forgot-password', 'register', 'use-points')`))
    .addColumn('cust_no', 'text')
    .addColumn('salt', 'text', notNull)
    .addColumn('code_hash', 'text', notNull)
    .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active').check(sql`state IN ('active', 'used', 'void')`))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('sms_codes_by_phone').on('sms_codes').columns(['phone', 'created_at']).execute();

  // What a phone has done lately, whoever asked: wrong codes in a row, a 24-hour block, a captcha demand.
  await db.schema
    .createTable('phone_guards')
    .addColumn('phone', 'text', (c) => c.primaryKey())
    .addColumn('wrong_streak', 'integer', (c) => c.notNull().defaultTo(0).check(sql`wrong_streak >= 0`))
    .addColumn('blocked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('captcha_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', notNull)
    .execute();

  // A phone proven by a code in one session, for one purpose; registration and restore consume theirs.
  await withId(db, db.schema.createTable('phone_verifications'))
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onUpdate('cascade').onDelete('cascade'))
    .addColumn('phone', 'text', notNull)
    .addColumn('purpose', 'text', notNull)
    .addColumn('cust_no', 'text')
    .addColumn('verified_at', 'bigint', notNull)
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('phone_verifications_by_session').on('phone_verifications').columns(['session_id', 'purpose']).execute();

  await withId(db, db.schema.createTable('sms_outbox'))
    .addColumn('phone', 'text', notNull)
    .addColumn('text', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('sms_outbox_by_phone').on('sms_outbox').columns(['phone', 'id']).execute();

  await withId(db, db.schema.createTable('free_calls'))
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onUpdate('cascade').onDelete('cascade'))
    .addColumn('phone', 'text', notNull)
    .addColumn('locked_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('called_at', 'bigint')
    .execute();
  await db.schema.createIndex('free_calls_by_phone').on('free_calls').columns(['phone', 'expires_at']).execute();

  await db.schema.alterTable('sessions').addColumn('user_token', 'text').execute();
});

/**
 * `0003-code-askers-one-waiting-free-call`: against abuse of the SMS codes and the free call. Who asked for each code:
 * the session (distinct phones per session; which phone a free call may sign in) and the client's address (burst and
 * hourly caps per address); at most one waiting free-call lock per phone; indexes for the sweep of ended sessions.
 */
export const codeAskersOneWaitingFreeCall = legacy(3, async (db) => {
  await db.schema
    .alterTable('sms_codes')
    .addColumn('session_id', 'text', (c) => c.references('sessions.id').onUpdate('cascade').onDelete('set null'))
    .execute();
  await db.schema.alterTable('sms_codes').addColumn('client_address', 'text').execute();
  await db.schema.createIndex('sms_codes_by_session').on('sms_codes').columns(['session_id', 'created_at']).execute();
  await db.schema.createIndex('sms_codes_by_address').on('sms_codes').columns(['client_address', 'created_at']).execute();

  // Only the newest waiting lock of each phone stays.
  const lockTable = db as Kysely<{ free_calls: { id: number; phone: string; called_at: number | null } }>;
  await lockTable
    .deleteFrom('free_calls')
    .where('called_at', 'is', null)
    .where('id', 'not in', lockTable.selectFrom('free_calls').select((eb) => eb.fn.max('id').as('id')).where('called_at', 'is', null).groupBy('phone'))
    .execute();
  await db.schema.createIndex('one_waiting_free_call').unique().on('free_calls').column('phone').where(sql<boolean>`called_at IS NULL`).execute();
  await db.schema.createIndex('free_calls_by_session').on('free_calls').columns(['session_id', 'phone']).execute();

  await db.schema.createIndex('sessions_by_seen').on('sessions').column('seen_at').execute();
  await db.schema.createIndex('sessions_by_creation').on('sessions').column('created_at').execute();
});
