import { sql } from 'kysely';
import { notNull, withId, type Migration } from '../store/migrator';

// The SMS provider. Texts go out through an outbox (sms_messages): written in the transaction that decides them, sent
// after the commit, retried while the provider is down, with the provider's id and delivery status kept for support.
// The free call becomes a call check at the provider, one per session (free_call_checks replaces free_calls, whose
// "one waiting lock per phone" let a newer session take an older one's call). The sandbox's SMS line becomes a fake of
// the provider with its own texts and checks (sms_outbox gives way to them).
export const migration: Migration = {
  up: async (db) => {
    await withId(db, db.schema.createTable('sms_messages'))
      .addColumn('phone', 'text', notNull)
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('code', 'password')`))
      .addColumn('code_id', 'bigint', (c) => c.references('sms_codes.id').onDelete('set null'))
      .addColumn('session_id', 'text', (c) => c.references('sessions.id').onUpdate('cascade').onDelete('set null'))
      .addColumn('sealed_text', 'text')
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('pending', 'accepted', 'refused', 'failed', 'expired')`))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', notNull)
      .addColumn('lease_until', 'bigint')
      .addColumn('send_until', 'bigint', notNull)
      .addColumn('sms_id', 'text')
      .addColumn('status_code', 'integer')
      .addColumn('delivery', 'text', (c) => c.check(sql`delivery IN ('on the way', 'delivered', 'not delivered')`))
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('accepted_at', 'bigint')
      .addColumn('status_reads', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_status_at', 'bigint')
      .execute();
    await db.schema.createIndex('sms_messages_due').on('sms_messages').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('sms_messages_status_due').on('sms_messages').column('next_status_at').where(sql<boolean>`next_status_at IS NOT NULL`).execute();
    await db.schema.createIndex('sms_messages_by_phone').on('sms_messages').columns(['phone', 'id']).execute();
    await db.schema.createIndex('sms_messages_by_sms_id').on('sms_messages').column('sms_id').execute();
    await db.schema.createIndex('sms_messages_by_session').on('sms_messages').columns(['session_id', 'phone']).execute();

    await db.schema.dropTable('free_calls').execute();
    await withId(db, db.schema.createTable('free_call_checks'))
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onUpdate('cascade').onDelete('cascade'))
      .addColumn('phone', 'text', notNull)
      .addColumn('check_id', 'text', (c) => c.notNull().unique())
      .addColumn('call_phone', 'text', notNull)
      .addColumn('call_phone_pretty', 'text', notNull)
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('waiting', 'confirmed', 'signed-in', 'ended', 'conflict', 'replaced')`))
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('expires_at', 'bigint', notNull)
      .addColumn('read_until', 'bigint')
      .addColumn('read_at', 'bigint')
      .execute();
    await db.schema.createIndex('free_call_checks_by_session').on('free_call_checks').columns(['session_id', 'phone', 'id']).execute();
    await db.schema.createIndex('free_call_checks_by_number').on('free_call_checks').columns(['phone', 'call_phone', 'state']).execute();

    await db.schema.dropTable('sms_outbox').execute();
    await withId(db, db.schema.createTable('sandbox_smsru_texts'))
      .addColumn('sms_id', 'text', (c) => c.notNull().unique())
      .addColumn('phone', 'text', notNull)
      .addColumn('text', 'text', notNull)
      .addColumn('status_code', 'integer', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('sandbox_smsru_texts_by_phone').on('sandbox_smsru_texts').columns(['phone', 'id']).execute();
    await db.schema
      .createTable('sandbox_smsru_checks')
      .addColumn('check_id', 'text', (c) => c.primaryKey())
      .addColumn('phone', 'text', notNull)
      .addColumn('call_phone', 'text', notNull)
      .addColumn('check_status', 'integer', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('expires_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('sandbox_smsru_checks_by_phone').on('sandbox_smsru_checks').columns(['phone', 'created_at']).execute();
  },
};
