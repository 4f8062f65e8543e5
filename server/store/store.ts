/**
 * The store: every query the server makes, as named async functions over Kysely, the same on SQLite and PostgreSQL.
 * Handlers call these and never write SQL themselves.
 *
 * - A query: a named function in `queries` below (the hot, fixed-shape ones compiled once through `prepared`).
 * - A transaction: `store.transaction(async (tx) => …)`, where `tx` is this same API bound to the transaction; code in
 *   it uses `tx` only (the root store inside it would wait for the transaction's own connection on SQLite). Inside a
 *   transaction, `transaction` joins it. The work may run more than once on PostgreSQL (see below), so it does
 *   database work only; anything else goes to `tx.afterCommit(…)`, which runs once, after the commit.
 * - Isolation: SQLite transactions are BEGIN IMMEDIATE (one writer at a time, across processes sharing the file).
 *   PostgreSQL transactions are SERIALIZABLE and retried (bounded, with jittered backoff) when they lose to a
 *   concurrent one (serialization failure, deadlock, or a unique violation a concurrent commit caused: see
 *   engines.ts triesFor): every transaction behaves as if transactions ran one at a time, as on SQLite, so a rule
 *   checked and written in one transaction (one pending attempt per bill, points written off once, OTP and SMS caps)
 *   holds across processes without a lock to remember per rule.
 * - Status changes of payment attempts are published to the change feed (changeFeed.ts) at commit.
 */
import crypto from 'node:crypto';
import { sql, type Insertable, type Kysely } from 'kysely';
import { localFeed, postgresFeed, type ChangeFeed, type ChangePublisher } from './changeFeed';
import { connect, triesFor, type DatabaseLocation, type Engine } from './engines';
import { migrateToLatest } from './migrations';
import { prepared } from './prepared';
import type {
  AccountRow,
  AttemptRow,
  BillRow,
  CodePurpose,
  Database,
  IdempotencyRow,
  LedgerEntry,
  LedgerRow,
  SandboxWebhookRow,
  WebhookAttemptRow,
  WebhookEventRow,
  WebhookEventType,
  ExchangeRow,
  PaymentAttemptsTable,
  PaymentStatus,
  PaymentTypeRow,
  RbsOrderRow,
  PhoneGuardRow,
  SessionRow,
  SmsCodeRow,
  VerificationRow,
} from './schema';

export type * from './schema';

export type NewAttempt = Omit<Insertable<PaymentAttemptsTable>, 'status' | 'created_at' | 'updated_at'>;

/** What the acquirer answered about an attempt's order, as stored on the attempt. */
export type AcquirerFacts = Partial<Pick<AttemptRow, 'acquirer_order_id' | 'form_url' | 'sbp_qrc_id' | 'sbp_payload' | 'sbp_image' | 'acquirer_checked_at'>>;

type Effect = () => void | Promise<void>;

/** The ceiling of the jittered backoff between tries of a PostgreSQL transaction that lost to a concurrent one. */
const MAX_BACKOFF_MS = 200;

/** Every column of a session, named (a named prepared query lists its columns); the Record makes the list complete. */
const SESSION_COLUMNS = Object.keys({
  id: true,
  csrf_token: true,
  account_id: true,
  created_at: true,
  seen_at: true,
  user_token: true,
} satisfies Record<keyof SessionRow, true>) as (keyof SessionRow)[];

let eventSequence = 0;
/**
 * A webhook message id that sorts by when it was made: `msg_`, the time and a counter of this process in hex, then
 * randomness (so ids of several processes never collide). Events of one transaction are sent in the order queued.
 */
function nextEventId(t: number): string {
  eventSequence = (eventSequence + 1) % 0x10000;
  return `msg_${t.toString(16).padStart(12, '0')}${eventSequence.toString(16).padStart(4, '0')}${crypto.randomBytes(8).toString('hex')}`;
}

/** The hot queries, compiled once per engine. */
function compileHotQueries(db: Kysely<Database>) {
  return {
    billByOid: prepared((a: { oid: string }) => db.selectFrom('bills').selectAll().where('oid', '=', a.oid)),
    billByLink: prepared((a: { linkId: string }) => db.selectFrom('bills').selectAll().where('link_id', '=', a.linkId)),
    typesOfBill: prepared((a: { billOid: string }) => db.selectFrom('payment_types').selectAll().where('bill_oid', '=', a.billOid).orderBy('position')),
    attemptByOrder: prepared((a: { orderId: string }) => db.selectFrom('payment_attempts').selectAll().where('order_id', '=', a.orderId)),
    // Read by the CSRF check of every POST.
    sessionById: prepared((a: { id: string }) => db.selectFrom('sessions').select(SESSION_COLUMNS).where('id', '=', a.id), { name: 'sessionById' }),
    // The status poll in one round trip: the session's CSRF token and times (it may have ended), the bill (to tell a
    // wrong link; the page names it by its link id) and the status of the order if it is that bill's. Each a lookup by
    // a unique index.
    pollStatus: prepared(
      (a: { sessionId: string; orderId: string; billLink: string }) =>
        db
          .selectFrom(db.selectNoFrom(sql<number>`1`.as('one')).as('poll'))
          .leftJoin('sessions', (join) => join.on('sessions.id', '=', a.sessionId))
          .leftJoin('bills', (join) => join.on('bills.link_id', '=', a.billLink))
          // The page polls with our order id, the acquirer's (appended to its return URL) or the QR's id: each indexed.
          .leftJoin('payment_attempts', (join) =>
            join
              .onRef('payment_attempts.bill_oid', '=', 'bills.oid')
              .on((eb) => eb.or([eb('payment_attempts.order_id', '=', a.orderId), eb('payment_attempts.acquirer_order_id', '=', a.orderId), eb('payment_attempts.sbp_qrc_id', '=', a.orderId)])),
          )
          .select([
            'sessions.csrf_token',
            'sessions.created_at as session_created_at',
            'sessions.seen_at as session_seen_at',
            'bills.link_id as bill',
            // A bill paid by another attempt meanwhile: the poll says so rather than wait for a bank that never answers.
            'bills.status as bill_status',
            'payment_attempts.status',
            'payment_attempts.order_id',
            'payment_attempts.acquirer_checked_at',
          ]),
      { name: 'pollStatus' },
    ),
  };
}

interface Context {
  engine: Engine;
  feed: ChangeFeed & ChangePublisher;
  now: () => number;
  hot: ReturnType<typeof compileHotQueries>;
  root: Kysely<Database>;
  /** Told (after the commit) that a webhook event was queued: the delivery worker of this process wakes at once. */
  outboxWaiters: Set<() => void>;
}

/** What a new bill may leave out: the times and the states it gets later. */
export type NewBill = Omit<BillRow, 'created_at' | 'paid_order_id' | 'expires_at' | 'return_url' | 'paid_at' | 'closed_as' | 'closed_at'> &
  Partial<Pick<BillRow, 'expires_at' | 'return_url'>>;

/** A payment attempt with its method's code (the payment type's), as the merchant API shows it. */
export type AttemptWithMethod = AttemptRow & { method: PaymentTypeRow['code'] };

/** Where a page of attempts starts: after this (created_at, order_id). */
export interface AttemptsPage {
  status?: PaymentStatus;
  since?: number;
  after?: { createdAt: number; orderId: string };
  limit: number;
}

/** The named queries, on `db` (the root connection or a transaction); `afterCommit` defers an effect to the commit. */
function queries(ctx: Context, db: Kysely<Database>, afterCommit: (effect: Effect) => void) {
  const { hot, now, feed, outboxWaiters } = ctx;
  const first = <T>(rows: T[]): T | undefined => rows[0];
  const changed = (result: { numUpdatedRows: bigint } | { numDeletedRows: bigint }) =>
    Number('numUpdatedRows' in result ? result.numUpdatedRows : result.numDeletedRows);

  return {
    // Bills and their payment types.
    billByOid: async (oid: string): Promise<BillRow | undefined> => first(await hot.billByOid(db, { oid })),
    /** The bill a page names by its public link id (server/payLinks.ts). */
    billByLink: async (linkId: string): Promise<BillRow | undefined> => first(await hot.billByLink(db, { linkId })),
    typesOfBill: (billOid: string): Promise<PaymentTypeRow[]> => hot.typesOfBill(db, { billOid }),
    isEmpty: async () => (await db.selectFrom('bills').select('oid').limit(1).executeTakeFirst()) === undefined,
    insertBill: async (bill: NewBill) => {
      await db.insertInto('bills').values({ ...bill, created_at: now() }).execute();
    },
    insertType: async (type: PaymentTypeRow) => {
      await db.insertInto('payment_types').values(type).execute();
    },
    /** Marks an open bill paid (by this attempt; null: seeded as paid); a bill closed without payment stays closed. */
    markBillPaid: async (billOid: string, orderId: string | null) =>
      changed(
        await db
          .updateTable('bills')
          .set({ status: 'paid', paid_order_id: orderId, paid_at: now() })
          .where('oid', '=', billOid)
          .where('status', '=', 'open')
          .where('closed_as', 'is', null)
          .executeTakeFirstOrThrow(),
      ) === 1,
    /** Closes an open, unpaid bill without payment; answers false when it was paid or closed meanwhile. */
    closeBill: async (billOid: string, as: 'cancelled' | 'expired') =>
      changed(
        await db
          .updateTable('bills')
          .set({ closed_as: as, closed_at: now() })
          .where('oid', '=', billOid)
          .where('status', '=', 'open')
          .where('closed_as', 'is', null)
          .executeTakeFirstOrThrow(),
      ) === 1,
    /** Open bills whose expiresAt has come and that are not closed yet, oldest deadline first. */
    billsDueToExpire: async (limit: number): Promise<string[]> =>
      (
        await db
          .selectFrom('bills')
          .select('oid')
          .where('expires_at', 'is not', null)
          .where('expires_at', '<=', now())
          .where('closed_as', 'is', null)
          .where('status', '=', 'open')
          .orderBy('expires_at')
          .limit(limit)
          .execute()
      ).map((row) => row.oid),

    // Payment attempts.
    pendingAttempt: (billOid: string, typeOid: string, amountKopecks: number, points: number): Promise<AttemptRow | undefined> =>
      db
        .selectFrom('payment_attempts')
        .selectAll()
        .where('bill_oid', '=', billOid)
        .where('card_type_oid', '=', typeOid)
        .where('amount_kopecks', '=', amountKopecks)
        .where('points_used', '=', points)
        .where('status', '=', 'created')
        .executeTakeFirst(),
    /** Records a new pending attempt and answers it as stored. */
    insertAttempt: async (attempt: NewAttempt): Promise<AttemptRow> => {
      const t = now();
      return db.insertInto('payment_attempts').values({ ...attempt, status: 'created', created_at: t, updated_at: t }).returningAll().executeTakeFirstOrThrow();
    },
    attemptByOrder: async (orderId: string): Promise<AttemptRow | undefined> => first(await hot.attemptByOrder(db, { orderId })),
    /**
     * Who pays a pending attempt: the receipt e-mail, the signed-in user, the manager and the session of the latest
     * request. Answers the attempt as it now is, or undefined when it was not pending any more.
     */
    setAttemptPayer: (orderId: string, payer: Pick<AttemptRow, 'email' | 'user_oid' | 'manager_id' | 'session_id'>): Promise<AttemptRow | undefined> =>
      db
        .updateTable('payment_attempts')
        .set({ ...payer, updated_at: now() })
        .where('order_id', '=', orderId)
        .where('status', '=', 'created')
        .returningAll()
        .executeTakeFirst(),
    /**
     * The bill's open attempt (the latest still waiting for its bank) with its type's code, in one read: what a reload
     * resumes (issue 17). undefined when there is none.
     */
    openAttemptOfBill: (billOid: string) =>
      db
        .selectFrom('payment_attempts')
        .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
        .selectAll('payment_attempts')
        .select(['payment_types.code as type_code', 'payment_types.name as type_name'])
        .where('payment_attempts.bill_oid', '=', billOid)
        .where('payment_attempts.status', '=', 'created')
        // Registered at the acquirer: an attempt whose order was never made has no form or QR to go back to.
        .where('payment_attempts.acquirer_order_id', 'is not', null)
        .orderBy('payment_attempts.created_at', 'desc')
        .orderBy('payment_attempts.order_id')
        .limit(1)
        .executeTakeFirst(),
    /** An attempt with its bill and its type's name, in one read: what its receipt says (issue 17). */
    receiptOfOrder: (orderId: string) =>
      db
        .selectFrom('payment_attempts')
        .innerJoin('bills', 'bills.oid', 'payment_attempts.bill_oid')
        .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
        .selectAll('payment_attempts')
        .select(['bills.purpose', 'bills.status as bill_status', 'payment_types.code as type_code', 'payment_types.name as type_name'])
        .where('payment_attempts.order_id', '=', orderId)
        .executeTakeFirst(),
    pendingAttemptsOfBill: (billOid: string): Promise<AttemptRow[]> =>
      db.selectFrom('payment_attempts').selectAll().where('bill_oid', '=', billOid).where('status', '=', 'created').orderBy('created_at').execute(),
    /** A bill's attempts with their method codes, oldest first. */
    paymentsOfBill: (billOid: string): Promise<AttemptWithMethod[]> =>
      db
        .selectFrom('payment_attempts')
        .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
        .selectAll('payment_attempts')
        .select('payment_types.code as method')
        .where('payment_attempts.bill_oid', '=', billOid)
        .orderBy('payment_attempts.created_at')
        .orderBy('payment_attempts.order_id')
        .execute(),
    /** One attempt with its method code. */
    paymentByOrder: (orderId: string): Promise<AttemptWithMethod | undefined> =>
      db
        .selectFrom('payment_attempts')
        .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
        .selectAll('payment_attempts')
        .select('payment_types.code as method')
        .where('payment_attempts.order_id', '=', orderId)
        .executeTakeFirst(),
    /** A page of every bill's attempts in (created_at, order_id) order, for reconciliation. */
    paymentsPage: (page: AttemptsPage): Promise<AttemptWithMethod[]> => {
      let query = db
        .selectFrom('payment_attempts')
        .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
        .selectAll('payment_attempts')
        .select('payment_types.code as method');
      if (page.status) query = query.where('payment_attempts.status', '=', page.status);
      if (page.since !== undefined) query = query.where('payment_attempts.created_at', '>=', page.since);
      const after = page.after;
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('payment_attempts.created_at', '>', after.createdAt),
            eb.and([eb('payment_attempts.created_at', '=', after.createdAt), eb('payment_attempts.order_id', '>', after.orderId)]),
          ]),
        );
      }
      return query.orderBy('payment_attempts.created_at').orderBy('payment_attempts.order_id').limit(page.limit).execute();
    },
    attemptsOfBill: (billOid: string): Promise<AttemptRow[]> =>
      db.selectFrom('payment_attempts').selectAll().where('bill_oid', '=', billOid).orderBy('created_at').orderBy('order_id').execute(),
    /**
     * The status poll's one read: the CSRF token and times of the session (null: no such session), the bill named by its
     * link id (`bill`, that link id; null: no such bill) and the order's status (null: no such order of this bill).
     */
    pollStatus: async (sessionId: string, orderId: string, billLink: string) =>
      first(await hot.pollStatus(db, { sessionId, orderId, billLink })) ?? {
        csrf_token: null,
        session_created_at: null,
        session_seen_at: null,
        bill: null,
        bill_status: null,
        status: null,
        order_id: null,
        acquirer_checked_at: null,
      },
    /**
     * Moves a pending attempt to a final status and publishes the change (at commit); answers the finished attempt, or
     * undefined when it was not pending any more. Only server/payments.ts calls this (every status change in one place).
     */
    finishAttempt: async (orderId: string, status: Exclude<PaymentStatus, 'created'>, extra: { refund_state?: 'due' } = {}): Promise<AttemptRow | undefined> => {
      const row = await db
        .updateTable('payment_attempts')
        .set({ status, updated_at: now(), ...extra })
        .where('order_id', '=', orderId)
        .where('status', '=', 'created')
        .returningAll()
        .executeTakeFirst();
      if (row) await feed.publish(db, { kind: 'attempt-status', orderId, billOid: row.bill_oid, status }, afterCommit);
      return row;
    },
    /** The attempt whose id is ours, the acquirer's orderId or its fast-payment QR id. */
    attemptByAnyId: (id: string): Promise<AttemptRow | undefined> =>
      db
        .selectFrom('payment_attempts')
        .selectAll()
        .where((eb) => eb.or([eb('order_id', '=', id), eb('acquirer_order_id', '=', id), eb('sbp_qrc_id', '=', id)]))
        .executeTakeFirst(),
    /** Stores what the acquirer answered about an attempt's order (its id, card form, fast-payment QR). */
    recordAcquirerFacts: async (orderId: string, facts: AcquirerFacts): Promise<AttemptRow | undefined> =>
      db.updateTable('payment_attempts').set({ ...facts, updated_at: now() }).where('order_id', '=', orderId).returningAll().executeTakeFirst(),
    /** register.do is about to be sent for the first time (an order may exist from now on even without an answer). */
    /** Marks the attempt as being registered at the acquirer; false when it is no longer pending (its bill closed). */
    markRegisterStarted: async (orderId: string, expiresAt: number) =>
      changed(
        await db
          .updateTable('payment_attempts')
          .set({ register_started_at: now(), expires_at: expiresAt })
          .where('order_id', '=', orderId)
          .where('register_started_at', 'is', null)
          .where('status', '=', 'created')
          .executeTakeFirstOrThrow(),
      ) === 1,
    /**
     * Claims the right to talk to the acquirer about an attempt until `until` (one request in flight per attempt across
     * processes): a conditional UPDATE that only one claimant wins while the lease lasts.
     */
    claimAttemptLease: async (orderId: string, until: number): Promise<boolean> =>
      changed(
        await db
          .updateTable('payment_attempts')
          .set({ lease_until: until })
          .where('order_id', '=', orderId)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now())]))
          .executeTakeFirstOrThrow(),
      ) === 1,
    /**
     * Gives the lease back, only if it is still the one claimed until `until`: a holder slower than its lease must not
     * end the lease of the request that claimed it after it ran out.
     */
    releaseAttemptLease: async (orderId: string, until: number) => {
      await db.updateTable('payment_attempts').set({ lease_until: null }).where('order_id', '=', orderId).where('lease_until', '=', until).execute();
    },
    /** The acquirer's status of the attempt's order was read now. */
    markAcquirerChecked: async (orderId: string) => {
      await db.updateTable('payment_attempts').set({ acquirer_checked_at: now() }).where('order_id', '=', orderId).execute();
    },
    /** Pending attempts that went to the acquirer, least recently asked first (the sweeper's work). */
    attemptsToReconcile: (limit: number): Promise<AttemptRow[]> =>
      db
        .selectFrom('payment_attempts')
        .selectAll()
        .where('status', '=', 'created')
        .where('register_started_at', 'is not', null)
        .orderBy('updated_at')
        .limit(limit)
        .execute(),
    /** Refunds recorded but not yet made at the acquirer. */
    refundsDue: (limit: number): Promise<AttemptRow[]> =>
      db.selectFrom('payment_attempts').selectAll().where('refund_state', '=', 'due').orderBy('updated_at').limit(limit).execute(),
    refundMade: async (orderId: string) => {
      await db.updateTable('payment_attempts').set({ refund_state: 'done', refunded_at: now(), updated_at: now() }).where('order_id', '=', orderId).execute();
    },
    /**
     * The bill's pending attempt that went to the acquirer, newest first, with what the acquirer answered (its orderId,
     * card form, QR id, payload and image): what a reloaded page needs to show the payment step again.
     */
    // Exchanges with the acquirer (for support).
    recordExchange: async (exchange: Omit<ExchangeRow, 'id' | 'created_at'>) => {
      await db.insertInto('acquirer_exchanges').values({ ...exchange, created_at: now() }).execute();
    },
    exchangesOfAttempt: (orderId: string): Promise<ExchangeRow[]> =>
      db.selectFrom('acquirer_exchanges').selectAll().where('order_id', '=', orderId).orderBy('id').execute(),

    // The sandbox's RBS fake (another party that happens to share the database; never the product's tables).
    rbsInsertOrder: async (order: Omit<RbsOrderRow, 'created_at' | 'updated_at' | 'refunded_amount' | 'qr_id'>) => {
      const t = now();
      return db.insertInto('sandbox_rbs_orders').values({ ...order, refunded_amount: 0, qr_id: null, created_at: t, updated_at: t }).returningAll().executeTakeFirstOrThrow();
    },
    rbsOrder: (by: { orderId?: string; orderNumber?: string; qrId?: string }): Promise<RbsOrderRow | undefined> => {
      let query = db.selectFrom('sandbox_rbs_orders').selectAll();
      if (by.orderId !== undefined) query = query.where('order_id', '=', by.orderId);
      else if (by.orderNumber !== undefined) query = query.where('order_number', '=', by.orderNumber);
      else if (by.qrId !== undefined) query = query.where('qr_id', '=', by.qrId);
      else return Promise.resolve(undefined);
      return query.executeTakeFirst();
    },
    /** Moves a fake order from one of `from` to `to`; answers the order as it now is, or undefined if it was not in `from`. */
    rbsMoveOrder: (orderId: string, from: number[], to: { order_status: number; action_code: number; refunded_amount?: number }): Promise<RbsOrderRow | undefined> =>
      db
        .updateTable('sandbox_rbs_orders')
        .set({ ...to, updated_at: now() })
        .where('order_id', '=', orderId)
        .where('order_status', 'in', from)
        .returningAll()
        .executeTakeFirst(),
    rbsSetQr: async (orderId: string, qrId: string) => {
      await db.updateTable('sandbox_rbs_orders').set({ qr_id: qrId, updated_at: now() }).where('order_id', '=', orderId).execute();
    },

    // The points ledger: a balance is the sum of its entries.
    pointsBalance: async (custNo: string): Promise<number> => {
      const row = await db
        .selectFrom('points_ledger')
        .select((eb) => eb.cast<number>(eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)), 'bigint').as('balance'))
        .where('cust_no', '=', custNo)
        .executeTakeFirstOrThrow();
      return Number(row.balance);
    },
    addLedgerEntry: async (entry: Omit<LedgerEntry, 'id' | 'created_at'>) => {
      await db.insertInto('points_ledger').values({ ...entry, created_at: now() }).execute();
    },
    /** A customer's ledger, newest first, entries older than `beforeId` (all when undefined). */
    ledgerPage: (custNo: string, beforeId: number | undefined, limit: number): Promise<LedgerRow[]> => {
      let query = db.selectFrom('points_ledger').selectAll().where('cust_no', '=', custNo);
      if (beforeId !== undefined) query = query.where('id', '<', beforeId);
      return query.orderBy('id', 'desc').limit(limit).execute();
    },
    /** Adds a ledger entry and answers it as stored. */
    insertLedgerEntry: (entry: Omit<LedgerEntry, 'id' | 'created_at'>): Promise<LedgerRow> =>
      db.insertInto('points_ledger').values({ ...entry, created_at: now() }).returningAll().executeTakeFirstOrThrow(),
    ledgerOfCustomer: (custNo: string) => db.selectFrom('points_ledger').select(['delta', 'reason', 'order_id']).where('cust_no', '=', custNo).orderBy('id').execute(),

    // The merchant API's idempotency keys (kept at least 24 h).
    idempotencyAnswer: (keyId: string, idempotencyKey: string): Promise<IdempotencyRow | undefined> =>
      db.selectFrom('idempotency_keys').selectAll().where('key_id', '=', keyId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst(),
    saveIdempotencyAnswer: async (row: Omit<IdempotencyRow, 'created_at'>) => {
      await db.insertInto('idempotency_keys').values({ ...row, created_at: now() }).execute();
    },
    sweepIdempotencyKeys: async (before: number) =>
      changed(await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirstOrThrow()),

    // Settings the server generates once and keeps (the sandbox's development API key, webhook secret and acquirer callback key).
    setting: async (name: string): Promise<string | undefined> =>
      (await db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirst())?.value,
    /** Stores a setting unless one is there already, and answers whichever is stored (processes starting together agree). */
    settingOnce: async (name: string, value: string): Promise<string> => {
      await db.insertInto('server_settings').values({ name, value, created_at: now() }).onConflict((oc) => oc.column('name').doNothing()).execute();
      return (await db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow()).value;
    },

    // The webhook outbox.
    /**
     * Queues a webhook event in the same transaction as the change it tells of; the delivery worker of this process is
     * woken after the commit (others find it by polling). Answers the event's id.
     */
    enqueueEvent: async (type: WebhookEventType, data: unknown): Promise<string> => {
      const t = now();
      const id = nextEventId(t);
      const payload = JSON.stringify({ id, type, createdAt: new Date(t).toISOString(), data });
      await db.insertInto('webhook_events').values({ id, type, payload, state: 'pending', attempts: 0, next_attempt_at: t, lease_until: null, created_at: t }).execute();
      afterCommit(() => {
        for (const wake of outboxWaiters) wake();
      });
      return id;
    },
    /** Ids of pending events due now and not held by a live lease. */
    dueWebhookEvents: async (limit: number): Promise<string[]> => {
      const t = now();
      return (
        await db
          .selectFrom('webhook_events')
          .select('id')
          .where('state', '=', 'pending')
          .where('next_attempt_at', '<=', t)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', t)]))
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit)
          .execute()
      ).map((row) => row.id);
    },
    /**
     * Takes an event for delivery until `leaseUntil` with one conditional UPDATE: of several workers only one gets it
     * (answers the event), the others get undefined.
     */
    claimWebhookEvent: (id: string, leaseUntil: number): Promise<WebhookEventRow | undefined> => {
      const t = now();
      return db
        .updateTable('webhook_events')
        .set({ lease_until: leaseUntil })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', t)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', t)]))
        .returningAll()
        .executeTakeFirst();
    },
    /** Records one delivery attempt and the event's next state, releasing the lease. */
    recordWebhookAttempt: async (
      attempt: Omit<WebhookAttemptRow, 'id'>,
      next: Pick<WebhookEventRow, 'state' | 'attempts' | 'next_attempt_at' | 'delivered_at'>,
    ) => {
      await db.insertInto('webhook_attempts').values(attempt).execute();
      await db.updateTable('webhook_events').set({ ...next, lease_until: null }).where('id', '=', attempt.event_id).execute();
    },
    webhookEvent: (id: string): Promise<WebhookEventRow | undefined> => db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst(),
    webhookEvents: (limit: number): Promise<WebhookEventRow[]> => db.selectFrom('webhook_events').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
    webhookAttemptsOf: (eventId: string): Promise<WebhookAttemptRow[]> =>
      db.selectFrom('webhook_attempts').selectAll().where('event_id', '=', eventId).orderBy('id').execute(),

    // The sandbox's webhook inbox.
    insertSandboxWebhook: async (row: Omit<SandboxWebhookRow, 'id' | 'received_at'>) => {
      await db.insertInto('sandbox_webhooks').values({ ...row, received_at: now() }).execute();
    },
    sandboxWebhooks: (limit: number): Promise<SandboxWebhookRow[]> => db.selectFrom('sandbox_webhooks').selectAll().orderBy('id', 'desc').limit(limit).execute(),

    // Sessions.
    sessionById: async (id: string) => first(await hot.sessionById(db, { id })),
    insertSession: async (id: string, csrfToken: string) => {
      const t = now();
      await db.insertInto('sessions').values({ id, csrf_token: csrfToken, account_id: null, created_at: t, seen_at: t }).execute();
    },
    /** Signs a session in (or out, with null); a new sign-in never inherits the previous user's token. */
    setSessionAccount: async (sessionId: string, accountId: number | null) => {
      await db.updateTable('sessions').set({ account_id: accountId, user_token: null, seen_at: now() }).where('id', '=', sessionId).execute();
    },
    setUserToken: async (sessionId: string, token: string | null) => {
      await db.updateTable('sessions').set({ user_token: token }).where('id', '=', sessionId).execute();
    },
    /** Gives a session a new id (verifications and free calls follow by ON UPDATE CASCADE). */
    renameSession: async (oldId: string, newId: string) => {
      await db.updateTable('sessions').set({ id: newId }).where('id', '=', oldId).execute();
    },
    /** The session was used now (its idle time starts again). */
    touchSession: async (id: string) => {
      await db.updateTable('sessions').set({ seen_at: now() }).where('id', '=', id).execute();
    },
    /** Ends a session: its verifications and free-call locks go with it (ON DELETE CASCADE). */
    deleteSession: async (id: string) => {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },
    /** Deletes every session idle since `idleBefore` or begun before `bornBefore`; answers how many. */
    sweepSessions: async (idleBefore: number, bornBefore: number) =>
      changed(
        await db
          .deleteFrom('sessions')
          .where((eb) => eb.or([eb('seen_at', '<=', idleBefore), eb('created_at', '<=', bornBefore)]))
          .executeTakeFirstOrThrow(),
      ),

    // Loyalty accounts.
    accountByPhone: (phone: string): Promise<AccountRow | undefined> => db.selectFrom('loyalty_accounts').selectAll().where('phone', '=', phone).executeTakeFirst(),
    accountById: (id: number): Promise<AccountRow | undefined> => db.selectFrom('loyalty_accounts').selectAll().where('id', '=', id).executeTakeFirst(),
    insertAccount: async (account: Omit<AccountRow, 'id' | 'created_at'>) => {
      await db.insertInto('loyalty_accounts').values({ ...account, created_at: now() }).execute();
    },
    setPassword: async (accountId: number, passwordHash: string) => {
      await db.updateTable('loyalty_accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
    },

    // SMS codes and what guards them.
    insertCode: async (code: Pick<SmsCodeRow, 'phone' | 'purpose' | 'cust_no' | 'salt' | 'code_hash' | 'expires_at' | 'session_id' | 'client_address'>) => {
      await db.insertInto('sms_codes').values({ ...code, wrong_tries: 0, state: 'active', created_at: now() }).execute();
    },
    /** The newest code of a phone and purpose that may still be entered. */
    activeCode: (phone: string, purpose: CodePurpose): Promise<SmsCodeRow | undefined> =>
      db
        .selectFrom('sms_codes')
        .selectAll()
        .where('phone', '=', phone)
        .where('purpose', '=', purpose)
        .where('state', '=', 'active')
        .where('expires_at', '>', now())
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    voidActiveCodes: async (phone: string, purpose: CodePurpose) => {
      await db.updateTable('sms_codes').set({ state: 'void' }).where('phone', '=', phone).where('purpose', '=', purpose).where('state', '=', 'active').execute();
    },
    voidAllCodesOfPhone: async (phone: string) => {
      await db.updateTable('sms_codes').set({ state: 'void' }).where('phone', '=', phone).where('state', '=', 'active').execute();
    },
    setCodeTries: async (id: number, wrongTries: number, state: 'active' | 'void') => {
      await db.updateTable('sms_codes').set({ wrong_tries: wrongTries, state }).where('id', '=', id).execute();
    },
    /** Marks a code used; answers false when it was used meanwhile (single use). */
    useCode: async (id: number) =>
      changed(await db.updateTable('sms_codes').set({ state: 'used' }).where('id', '=', id).where('state', '=', 'active').executeTakeFirstOrThrow()) === 1,
    /** Codes sent to a phone after a moment: how many, the oldest and the newest send time. */
    sendsSince: async (phone: string, since: number) => {
      const row = await db
        .selectFrom('sms_codes')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest'), eb.fn.max('created_at').as('newest')])
        .where('phone', '=', phone)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      const nullable = (value: number | null) => (value === null ? null : Number(value));
      return { n: Number(row.n), oldest: nullable(row.oldest), newest: nullable(row.newest) };
    },
    /** The phones a session had codes sent to after a moment. */
    phonesOfSession: async (sessionId: string, since: number): Promise<string[]> =>
      (await db.selectFrom('sms_codes').select('phone').distinct().where('session_id', '=', sessionId).where('created_at', '>', since).execute()).map(
        (row) => row.phone,
      ),
    /** Codes sent at the request of a client address after a moment: how many, and the oldest send time. */
    sendsFromAddress: async (address: string, since: number) => {
      const row = await db
        .selectFrom('sms_codes')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('client_address', '=', address)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return { n: Number(row.n), oldest: row.oldest === null ? null : Number(row.oldest) };
    },
    /** The newest code this session had sent that may still be entered (issue 17: a reload on the code screen resumes it). */
    liveCodeOfSession: (sessionId: string): Promise<SmsCodeRow | undefined> =>
      db
        .selectFrom('sms_codes')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('state', '=', 'active')
        .where('expires_at', '>', now())
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    /** Whether this session had a code of this purpose sent to this phone after a moment. */
    codeSentInSession: async (sessionId: string, phone: string, purpose: CodePurpose, since: number) =>
      (await db
        .selectFrom('sms_codes')
        .select('id')
        .where('session_id', '=', sessionId)
        .where('phone', '=', phone)
        .where('purpose', '=', purpose)
        .where('created_at', '>', since)
        .limit(1)
        .executeTakeFirst()) !== undefined,

    guardOf: async (phone: string): Promise<PhoneGuardRow> =>
      (await db.selectFrom('phone_guards').selectAll().where('phone', '=', phone).executeTakeFirst()) ?? {
        phone,
        wrong_streak: 0,
        blocked_until: 0,
        captcha_required: 0,
        updated_at: 0,
      },
    saveGuard: async (guard: Omit<PhoneGuardRow, 'updated_at'>) => {
      await db
        .insertInto('phone_guards')
        .values({ ...guard, updated_at: now() })
        .onConflict((oc) =>
          oc.column('phone').doUpdateSet((eb) => ({
            wrong_streak: eb.ref('excluded.wrong_streak'),
            blocked_until: eb.ref('excluded.blocked_until'),
            captcha_required: eb.ref('excluded.captcha_required'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },

    /** Demands (or stops demanding) the captcha for a phone, leaving the rest of its guard as it is, in one statement. */
    setCaptchaRequired: async (phone: string, required: boolean) => {
      const flag = required ? 1 : 0;
      await db
        .insertInto('phone_guards')
        .values({ phone, wrong_streak: 0, blocked_until: 0, captcha_required: flag, updated_at: now() })
        .onConflict((oc) => oc.column('phone').doUpdateSet((eb) => ({ captcha_required: eb.ref('excluded.captcha_required'), updated_at: eb.ref('excluded.updated_at') })))
        .execute();
    },

    // Phones proven in a session.
    insertVerification: async (v: Pick<VerificationRow, 'session_id' | 'phone' | 'purpose' | 'cust_no'>) => {
      await db.insertInto('phone_verifications').values({ ...v, verified_at: now() }).execute();
    },
    openVerification: (sessionId: string, phone: string, purpose: CodePurpose, since: number): Promise<VerificationRow | undefined> =>
      db
        .selectFrom('phone_verifications')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('phone', '=', phone)
        .where('purpose', '=', purpose)
        .where('consumed_at', 'is', null)
        .where('verified_at', '>', since)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    customerVerification: (sessionId: string, custNo: string, since: number): Promise<VerificationRow | undefined> =>
      db
        .selectFrom('phone_verifications')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('purpose', '=', 'use-points')
        .where('cust_no', '=', custNo)
        .where('verified_at', '>', since)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    consumeVerification: async (id: number) =>
      changed(
        await db.updateTable('phone_verifications').set({ consumed_at: now() }).where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirstOrThrow(),
      ) === 1,

    // The sandbox's SMS outbox.
    insertOutbox: async (phone: string, text: string) => {
      await db.insertInto('sms_outbox').values({ phone, text, created_at: now() }).execute();
    },
    outboxOf: (phone: string, limit: number) => db.selectFrom('sms_outbox').selectAll().where('phone', '=', phone).orderBy('id', 'desc').limit(limit).execute(),

    // Free calls.
    insertFreeCall: async (sessionId: string, phone: string, expiresAt: number) => {
      await db.insertInto('free_calls').values({ session_id: sessionId, phone, locked_at: now(), expires_at: expiresAt }).execute();
    },
    latestFreeCall: (sessionId: string, phone: string) =>
      db.selectFrom('free_calls').selectAll().where('session_id', '=', sessionId).where('phone', '=', phone).orderBy('id', 'desc').limit(1).executeTakeFirst(),
    /** Drops the lock still waiting for a call from this phone, whichever session made it (a newer lock replaces it). */
    endWaitingFreeCalls: async (phone: string) => {
      await db.deleteFrom('free_calls').where('phone', '=', phone).where('called_at', 'is', null).execute();
    },
    /** The free-call line heard a call from this phone: the one live lock for it, if any, is answered. */
    recordCall: async (phone: string) => {
      const t = now();
      return changed(
        await db.updateTable('free_calls').set({ called_at: t }).where('phone', '=', phone).where('called_at', 'is', null).where('expires_at', '>', t).executeTakeFirstOrThrow(),
      );
    },
  };
}

type Queries = ReturnType<typeof queries>;

export type Store = Queries & {
  readonly engine: Engine;
  /** The clock every row is written with (tests give a fake one). */
  readonly now: () => number;
  /** Runs `work` in a transaction with the store bound to it (see the top of this file); inside one, joins it. */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
  /** Runs an effect after the surrounding transaction commits (at once outside a transaction). */
  afterCommit(effect: Effect): void;
};

export interface RootStore extends Store {
  readonly feed: ChangeFeed;
  /** Calls `wake` after each commit that queued a webhook event in this process; answers the function that stops. */
  onEventQueued(wake: () => void): () => void;
  /** The query builder itself, for tests and tools (never for handlers). */
  readonly db: Kysely<Database>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function inTransaction(ctx: Context, trx: Kysely<Database>, effects: Effect[]): Store {
  const afterCommit = (effect: Effect) => void effects.push(effect);
  const tx: Store = {
    ...queries(ctx, trx, afterCommit),
    engine: ctx.engine,
    now: ctx.now,
    transaction: (work) => work(tx),
    afterCommit,
  };
  return tx;
}

async function runTransaction<T>(ctx: Context, work: (tx: Store) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const effects: Effect[] = [];
    let result: T;
    try {
      const begin = ctx.engine === 'postgres' ? ctx.root.transaction().setIsolationLevel('serializable') : ctx.root.transaction();
      result = await begin.execute((trx) => work(inTransaction(ctx, trx, effects)));
    } catch (error) {
      if (ctx.engine !== 'postgres' || attempt >= triesFor(error)) throw error;
      // Lost to a concurrent transaction: nothing of this try was written; wait a little (jittered) and do it again.
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt));
      continue;
    }
    for (const effect of effects) await effect();
    return result;
  }
}

export interface StoreOptions extends DatabaseLocation {
  now: () => number;
  /** PostgreSQL connections per process. */
  poolSize?: number;
  log?: (message: string, error?: unknown) => void;
}

/** Connects to the database of `options`, applies pending migrations and answers the root store. */
export async function openStore(options: StoreOptions): Promise<RootStore> {
  const log = options.log ?? ((message, error) => console.error(message, error));
  const { engine, db } = connect(options, { poolSize: options.poolSize, onIdleError: (error) => log('database connection lost', error) });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const feed = options.databaseUrl ? postgresFeed({ url: options.databaseUrl, log }) : localFeed(log);
  const outboxWaiters = new Set<() => void>();
  const ctx: Context = { engine, feed, now: options.now, hot: compileHotQueries(db), root: db, outboxWaiters };
  const runNow = (effect: Effect) => void Promise.resolve(effect()).catch((error: unknown) => log('after-commit effect failed', error));
  return {
    ...queries(ctx, db, runNow),
    engine,
    now: options.now,
    transaction: (work) => runTransaction(ctx, work),
    afterCommit: runNow,
    feed,
    db,
    onEventQueued: (wake) => {
      outboxWaiters.add(wake);
      return () => void outboxWaiters.delete(wake);
    },
    close: async () => {
      await feed.close();
      await db.destroy();
    },
  };
}
