import { sql } from 'kysely';
import { legacy, notNull, withId } from '../store/migrator';

// SMS codes (hashed), per-phone guards, phone verifications of a session, the SMS outbox, free calls, and the
// token checkUser hands out for get-user.
export const migration = legacy(2, async (db) => {
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
