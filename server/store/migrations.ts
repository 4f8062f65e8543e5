/**
 * Schema migrations for both engines, applied in name order on start by Kysely's Migrator (its `kysely_migration`
 * table remembers which ran). All pending migrations run in one transaction: on PostgreSQL under the migrator's
 * advisory lock, on SQLite under BEGIN IMMEDIATE, so processes starting together never migrate twice.
 *
 * Never edit a shipped migration: add the next one, written once with Kysely's schema builder for both engines.
 * Money is integer kopecks (bigint) and times are epoch milliseconds (bigint) everywhere.
 *
 * SQLite files made before Kysely counted their migrations in `PRAGMA user_version`; migration N of that era is
 * already applied in a file whose user_version is N or more, so it is recorded as run without touching the file.
 */
import { payLinksMigration } from './payLinksMigration';
import { Migrator, PostgresAdapter, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';

type AnyDb = Kysely<unknown>;

const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

/** How many migrations a pre-Kysely SQLite file had applied (0 for a new file and for PostgreSQL). */
async function legacyVersion(db: AnyDb): Promise<number> {
  if (isPostgres(db)) return 0;
  const { rows } = await sql<{ user_version: number }>`pragma user_version`.execute(db);
  return rows[0]?.user_version ?? 0;
}

/** A migration of the user_version era: skipped (and recorded as run) where that version is already applied. */
const legacy = (version: number, up: (db: AnyDb) => Promise<void>): Migration => ({
  up: async (db) => {
    if ((await legacyVersion(db)) < version) await up(db);
  },
});

/**
 * A row id that the database assigns: SQLite's rowid alias (INTEGER PRIMARY KEY, exactly that spelling), PostgreSQL's
 * identity column.
 */
const withId = <T extends string>(db: AnyDb, table: CreateTableBuilder<T>) =>
  isPostgres(db)
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey());

const notNull = (c: ColumnDefinitionBuilder) => c.notNull();

export const migrations: Record<string, Migration> = {
  // Bills, their payment types, payment attempts, sessions, loyalty accounts, the points ledger.
  '0001-bills-payments-sessions': legacy(1, async (db) => {
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
  }),

  // SMS codes (hashed), per-phone guards, phone verifications of a session, the SMS outbox, free calls, and the
  // token checkUser hands out for get-user.
  '0002-codes-guards-outbox-free-calls': legacy(2, async (db) => {
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
  }),

  // Security (issue 12). Who asked for each code: the session (distinct phones per session; which phone a free call may
  // sign in) and the client's address (burst and hourly caps per address); at most one waiting free-call lock per
  // phone; indexes for the sweep of ended sessions.
  '0003-code-askers-one-waiting-free-call': legacy(3, async (db) => {
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
  }),

  // Issue 13: the acquirer gateway. An attempt keeps what the acquirer answered (its orderId, the card form, the fast-
  // payment QR), when it was last asked, a lease for "someone is asking it right now", its expiry and its refund; the
  // status gains 'refunded' (a second payment of a paid bill, returned). Every exchange with the acquirer is kept for
  // support. The sandbox's RBS fake keeps its own orders, never the product's attempts.
  '0004-acquirer-gateway': {
    up: async (db) => {
      const attemptColumns = (table: CreateTableBuilder<'payment_attempts_next'>) =>
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
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('created').check(sql`status IN ('created', 'success', 'declined', 'refunded')`))
          .addColumn('created_at', 'bigint', notNull)
          .addColumn('updated_at', 'bigint', notNull);
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
        let next = attemptColumns(db.schema.createTable('payment_attempts_next'));
        for (const [name, type] of NEW_COLUMNS) next = next.addColumn(name, type);
        await next.execute();
        const old = [
          'order_id', 'bill_oid', 'card_type_oid', 'amount_kopecks', 'commission_kopecks', 'points_used', 'email', 'user_oid', 'manager_id', 'status', 'created_at', 'updated_at',
        ].join(', ');
        await sql.raw(`INSERT INTO payment_attempts_next (${old}) SELECT ${old} FROM payment_attempts`).execute(db);
        await db.schema.dropTable('payment_attempts').execute();
        await db.schema.alterTable('payment_attempts_next').renameTo('payment_attempts').execute();
        await db.schema
          .createIndex('one_pending_attempt')
          .unique()
          .on('payment_attempts')
          .columns(['bill_oid', 'card_type_oid', 'amount_kopecks', 'points_used'])
          .where(sql<boolean>`status = 'created'`)
          .execute();
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
  },

  // The merchant API (issue 14). A bill may be closed without payment (cancelled by the merchant, or expired at its
  // expiresAt) and may name where the payer returns to; when it was paid. The answers of POSTs by their
  // Idempotency-Key; the webhook outbox with every delivery attempt; settings the server generates once (the sandbox's
  // development API key and webhook secret); the sandbox's webhook inbox.
  '0005-merchant-api-webhooks': {
    up: async (db) => {
      await db.schema.alterTable('bills').addColumn('expires_at', 'bigint').execute();
      await db.schema.alterTable('bills').addColumn('return_url', 'text').execute();
      await db.schema.alterTable('bills').addColumn('paid_at', 'bigint').execute();
      // The store's status stays open | paid (its CHECK cannot change on SQLite); a closed open bill is not payable.
      await db.schema.alterTable('bills').addColumn('closed_as', 'text', (c) => c.check(sql`closed_as IN ('cancelled', 'expired')`)).execute();
      await db.schema.alterTable('bills').addColumn('closed_at', 'bigint').execute();
      // The expiry sweep looks for open bills whose time has come.
      await db.schema.createIndex('bills_by_expiry').on('bills').column('expires_at').where(sql<boolean>`expires_at IS NOT NULL AND closed_as IS NULL`).execute();
      // Reconciliation pages through attempts by (created_at, order_id).
      await db.schema.createIndex('payment_attempts_by_creation').on('payment_attempts').columns(['created_at', 'order_id']).execute();
      await db.schema.createIndex('points_ledger_by_customer_id').on('points_ledger').columns(['cust_no', 'id']).execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('key_id', 'text', notNull)
        .addColumn('idempotency_key', 'text', notNull)
        .addColumn('fingerprint', 'text', notNull)
        .addColumn('status_code', 'integer', notNull)
        .addColumn('body', 'text', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['key_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_by_creation').on('idempotency_keys').column('created_at').execute();

      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', notNull)
        .addColumn('payload', 'text', notNull)
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending').check(sql`state IN ('pending', 'delivered', 'failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', notNull)
        .addColumn('lease_until', 'bigint')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_events_due').on('webhook_events').columns(['state', 'next_attempt_at']).execute();

      await withId(db, db.schema.createTable('webhook_attempts'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
        .addColumn('url', 'text', notNull)
        .addColumn('attempted_at', 'bigint', notNull)
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', notNull)
        .execute();
      await db.schema.createIndex('webhook_attempts_by_event').on('webhook_attempts').columns(['event_id', 'id']).execute();

      await db.schema
        .createTable('server_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .execute();

      await withId(db, db.schema.createTable('sandbox_webhooks'))
        .addColumn('webhook_id', 'text', notNull)
        .addColumn('type', 'text')
        .addColumn('body', 'text', notNull)
        .addColumn('valid', 'integer', notNull)
        .addColumn('received_at', 'bigint', notNull)
        .execute();
    },
  },

  // Every bill's public link id, the session of each attempt (its own file: this one is at the size limit of a file).
  '0006-pay-links-attempt-sessions': payLinksMigration,
};

/** Applies every pending migration; throws the first failure (nothing of a failed run stays applied). */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
  return (results ?? []).map((result) => result.migrationName);
}
