import { sql, type Kysely } from 'kysely';
import { legacy } from '../store/migrator';

// Against abuse of the SMS codes and the free call. Who asked for each code: the session (distinct phones per session;
// which phone a free call may sign in) and the client's address (burst and hourly caps per address); at most one
// waiting free-call lock per phone; indexes for the sweep of ended sessions.
export const migration = legacy(3, async (db) => {
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
