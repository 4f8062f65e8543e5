/**
 * The store: the engine every domain's queries run on, the same on SQLite and PostgreSQL. It knows no table: each
 * domain keeps its tables (its `tables.ts`) and its queries, named functions over a `Store`, beside its rules.
 * Handlers call those and never write SQL themselves.
 *
 * - A query: `billByOid(store, oid)`, written with `store.db` (Kysely on the root connection or on the transaction);
 *   the hot, fixed-shape ones compiled once per engine through `prepared` (prepared.ts).
 * - A transaction: `store.transaction(async (tx) => …)`, where `tx` is a store bound to the transaction; code in it
 *   uses `tx` only (the root store inside it would wait for the transaction's own connection on SQLite). Inside a
 *   transaction, `transaction` joins it. The work may run more than once on PostgreSQL (see below), so it does
 *   database work only; anything else goes to `tx.afterCommit(…)`, which runs once, after the commit.
 * - Isolation: SQLite transactions are BEGIN IMMEDIATE (one writer at a time, across processes sharing the file).
 *   PostgreSQL transactions are SERIALIZABLE and retried (bounded, with jittered backoff) when they lose to a
 *   concurrent one (serialization failure, deadlock, or a unique violation a concurrent commit caused: see
 *   engines.ts triesFor): every transaction behaves as if transactions ran one at a time, as on SQLite, so a rule
 *   checked and written in one transaction (one pending attempt per bill, points written off once, OTP and SMS caps)
 *   holds across processes without a lock to remember per rule.
 * - Changes a domain publishes (`publish`) reach the change feed (changeFeed.ts) at commit, in every process;
 *   `signal` wakes listeners of this process only, after the commit.
 * - A request's work runs on `store.forRequest(request.id)`: the same store, carrying the request's id, which its
 *   transactions carry too, so what the work records (an acquirer exchange, a webhook event, an audit line, a log
 *   line) names the request. The id is handed on with the store rather than found in an async context: on Node 20 an
 *   AsyncLocalStorage switches async hooks on for every promise of the process, about a sixth of a status poll's CPU.
 */
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { localFeed, postgresFeed, type Change, type ChangeFeed, type ChangePublisher } from './changeFeed';
import type { Database } from './database';
import { connect, triesFor, type DatabaseLocation, type Engine, type PoolStats } from './engines';
import { migrateToLatest, type Migration } from './migrator';

type Effect = () => void | Promise<void>;

/** The ceiling of the jittered backoff between tries of a PostgreSQL transaction that lost to a concurrent one. */
const MAX_BACKOFF_MS = 200;

/** The handle every named query takes: the root store or a transaction of it. */
export interface Store {
  /** The query builder, bound to the root connection or to the transaction: for named queries, never for handlers. */
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  /** The clock every row is written with (tests give a fake one). */
  readonly now: () => number;
  /** Runs `work` in a transaction with a store bound to it (see the top of this file); inside one, joins it. */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
  /** Runs an effect after the surrounding transaction commits (at once outside a transaction). */
  afterCommit(effect: Effect): void;
  /** Publishes a change to the change feed of every process; subscribers hear it once the transaction commits. */
  publish(change: Change): Promise<void>;
  /** Calls this process's listeners of `name` once the transaction commits (other processes find out by polling). */
  signal(name: string): void;
  /** The server's log, for what a domain function reports that no request answers (a chart that refused an event). */
  log(message: string, error?: unknown): void;
  /** The request this store's work is part of (its X-Request-Id); null for the server's own work (a worker, a sweep). */
  readonly requestId: string | null;
  /** This store, its work part of the request `requestId` (null: of none). */
  forRequest(requestId: string | null): Store;
}

export interface RootStore extends Store {
  readonly feed: ChangeFeed;
  /** Calls `listener` after each commit that signalled `name` in this process; answers the function that stops. */
  onSignal(name: string, listener: () => void): () => void;
  /** The PostgreSQL pool's connections now (for the metrics); null on SQLite. */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

interface Context {
  engine: Engine;
  feed: ChangeFeed & ChangePublisher;
  now: () => number;
  root: Kysely<Database>;
  listeners: Map<string, Set<() => void>>;
  log: StoreLog;
}

/** A log line the store's work writes: the request it is part of named (null: none). */
export type StoreLog = (message: string, error?: unknown, requestId?: string | null) => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A store over `db` (the root connection or a transaction) whose effects go to `afterCommit`, its work part of the
 * request `requestId`; `transaction` runs work in a transaction whose store is part of the same request.
 */
function storeOn(
  ctx: Context,
  db: Kysely<Database>,
  afterCommit: (effect: Effect) => void,
  transaction: <T>(work: (tx: Store) => Promise<T>, requestId: string | null) => Promise<T>,
  requestId: string | null,
): Store {
  return {
    db,
    engine: ctx.engine,
    now: ctx.now,
    transaction: (work) => transaction(work, requestId),
    afterCommit,
    publish: (change) => ctx.feed.publish(db, change, afterCommit),
    signal: (name) =>
      afterCommit(() => {
        for (const listener of ctx.listeners.get(name) ?? []) listener();
      }),
    log: (message, error) => ctx.log(message, error, requestId),
    requestId,
    forRequest: (id) => storeOn(ctx, db, afterCommit, transaction, id),
  };
}

function inTransaction(ctx: Context, trx: Kysely<Database>, effects: Effect[], requestId: string | null): Store {
  const joined = <T>(work: (tx: Store) => Promise<T>, id: string | null) => work(id === requestId ? tx : tx.forRequest(id));
  const tx: Store = storeOn(ctx, trx, (effect) => void effects.push(effect), joined, requestId);
  return tx;
}

async function runTransaction<T>(ctx: Context, work: (tx: Store) => Promise<T>, requestId: string | null): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const effects: Effect[] = [];
    let result: T;
    try {
      const begin = ctx.engine === 'postgres' ? ctx.root.transaction().setIsolationLevel('serializable') : ctx.root.transaction();
      result = await begin.execute((trx) => work(inTransaction(ctx, trx, effects, requestId)));
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
  /** The schema's history (server/migrations/): whatever of it the database lacks is applied on open. */
  migrations: Record<string, Migration>;
  /** PostgreSQL connections per process. */
  poolSize?: number;
  /** A PostgreSQL pool to borrow rather than open (ConnectOptions.borrowedPool): tests only. */
  borrowedPool?: pg.Pool;
  log?: StoreLog;
}

/** Connects to the database of `options`, applies pending migrations and answers the root store. */
export async function openStore(options: StoreOptions): Promise<RootStore> {
  const log: StoreLog = options.log ?? ((message, error) => (error === undefined ? console.error(message) : console.error(message, error)));
  const { engine, db, poolStats } = connect(options, {
    poolSize: options.poolSize,
    borrowedPool: options.borrowedPool,
    onIdleError: (error) => log('database connection lost', error),
  });
  try {
    await migrateToLatest(db as Kysely<unknown>, options.migrations);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const feed = options.databaseUrl ? postgresFeed({ url: options.databaseUrl, log }) : localFeed(log);
  const ctx: Context = { engine, feed, now: options.now, root: db, listeners: new Map(), log };
  const runNow = (effect: Effect) => void Promise.resolve(effect()).catch((error: unknown) => log('after-commit effect failed', error));
  return {
    ...storeOn(ctx, db, runNow, (work, requestId) => runTransaction(ctx, work, requestId), null),
    feed,
    onSignal: (name, listener) => {
      const listeners = ctx.listeners.get(name) ?? new Set();
      ctx.listeners.set(name, listeners);
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    poolStats,
    close: async () => {
      await feed.close();
      await db.destroy();
    },
  };
}
