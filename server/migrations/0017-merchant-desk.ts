/**
 * The merchant's desk: its staff (a role each, a scrypt hash, the lockout's count), their sessions (apart from the
 * payers'), the audit log, the pay links sent from it; the merchant's profile (name, support contacts, logo, offer
 * documents, webhook URL) that its admins edit; what the desk's bill search reads (each bill's words folded once); the
 * bill each webhook event is about; the sandbox's mail inbox.
 *
 * Self-contained: the backfills below fold with their own code, not the server's, so this file runs the same whatever
 * the server later does.
 */
import { sql } from 'kysely';
import { notNull, withId, type AnyDb, type Migration } from '../store/migrator';
import { withKey } from './columns';

/** How the search folds a bill's words: lower case, ё as е, spaces as one, the phone's digits as they are. */
const fold = (text: string) => text.toLocaleLowerCase('ru-RU').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

interface BillWords {
  oid: string;
  client_name: string;
  client_phone: string | null;
  client_email: string | null;
}

async function backfillBillSearch(db: AnyDb): Promise<void> {
  const bills = db as unknown as import('kysely').Kysely<{ bills: BillWords; bill_search: { bill_oid: string; words: string } }>;
  let after = '';
  for (;;) {
    const rows = await bills.selectFrom('bills').select(['oid', 'client_name', 'client_phone', 'client_email']).where('oid', '>', after).orderBy('oid').limit(500).execute();
    if (rows.length === 0) return;
    await bills
      .insertInto('bill_search')
      .values(rows.map((row) => ({ bill_oid: row.oid, words: fold([row.oid, row.client_name, row.client_email ?? '', row.client_phone ?? ''].join(' ')) })))
      .execute();
    after = rows.at(-1)!.oid;
  }
}

async function backfillEventBills(db: AnyDb): Promise<void> {
  const events = db as unknown as import('kysely').Kysely<{ webhook_events: { id: string; payload: string; bill_oid: string | null } }>;
  let after = '';
  for (;;) {
    const rows = await events.selectFrom('webhook_events').select(['id', 'payload']).where('id', '>', after).orderBy('id').limit(500).execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      let oid: unknown = null;
      try {
        oid = (JSON.parse(row.payload) as { data?: { objectOID?: unknown } }).data?.objectOID;
      } catch {
        // A payload that is not JSON names no bill.
      }
      if (typeof oid === 'string') await events.updateTable('webhook_events').set({ bill_oid: oid }).where('id', '=', row.id).execute();
    }
    after = rows.at(-1)!.id;
  }
}

export const migration: Migration = {
  up: async (db) => {
    await withId(db, db.schema.createTable('desk_staff'))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('manager', 'accountant', 'admin')`))
      .addColumn('password_hash', 'text', notNull)
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed_sign_ins', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'bigint')
      .addColumn('disabled_at', 'bigint')
      .addColumn('created_at', 'bigint', notNull)
      .execute();

    await withKey(db.schema.createTable('desk_sessions'), 'id')
      .addColumn('staff_id', 'bigint', (c) => c.references('desk_staff.id').onDelete('cascade'))
      .addColumn('csrf_token', 'text', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('seen_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('desk_sessions_by_staff').on('desk_sessions').column('staff_id').execute();

    await withId(db, db.schema.createTable('desk_audit'))
      .addColumn('staff_id', 'bigint', (c) => c.references('desk_staff.id').onDelete('set null'))
      .addColumn('staff_email', 'text', notNull)
      .addColumn('action', 'text', notNull)
      .addColumn('subject', 'text')
      .addColumn('details', 'text')
      .addColumn('request_id', 'text')
      .addColumn('created_at', 'bigint', notNull)
      .execute();
    // A bill's page lists what was done to it and its payments.
    await db.schema.createIndex('desk_audit_by_subject').on('desk_audit').columns(['subject', 'id']).execute();

    await withId(db, db.schema.createTable('desk_link_sends'))
      .addColumn('bill_oid', 'text', (c) => c.notNull().references('bills.oid'))
      .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel IN ('sms', 'email')`))
      .addColumn('recipient', 'text', notNull)
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('sent', 'failed')`))
      .addColumn('provider_id', 'text')
      .addColumn('error', 'text')
      .addColumn('staff_id', 'bigint', (c) => c.references('desk_staff.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('desk_link_sends_by_bill').on('desk_link_sends').columns(['bill_oid', 'channel', 'created_at']).execute();

    await withKey(db.schema.createTable('merchant_profile'), 'name')
      .addColumn('value', 'text', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();

    await db.schema
      .createTable('bill_search')
      .addColumn('bill_oid', 'text', (c) => c.primaryKey().references('bills.oid'))
      .addColumn('words', 'text', notNull)
      .execute();
    await backfillBillSearch(db);
    // The desk lists bills newest first.
    await db.schema.createIndex('bills_by_creation').on('bills').columns(['created_at', 'oid']).execute();

    // The payments' figures and export read successful payments by when they ended.
    await db.schema.createIndex('payment_attempts_by_end').on('payment_attempts').columns(['status', 'updated_at']).execute();

    await db.schema.alterTable('webhook_events').addColumn('bill_oid', 'text').execute();
    await backfillEventBills(db);
    await db.schema.createIndex('webhook_events_by_bill').on('webhook_events').columns(['bill_oid', 'id']).where(sql<boolean>`bill_oid IS NOT NULL`).execute();

    await withId(db, db.schema.createTable('sandbox_mail'))
      .addColumn('message_id', 'text')
      .addColumn('mail_from', 'text', notNull)
      .addColumn('rcpt_to', 'text', notNull)
      .addColumn('subject', 'text', notNull)
      .addColumn('text', 'text', notNull)
      .addColumn('html', 'text')
      .addColumn('received_at', 'bigint', notNull)
      .execute();
  },
};
