/**
 * The two engines behind the one query layer: Kysely on better-sqlite3 (a file, WAL, the embedded default) or on
 * node-postgres (`DATABASE_URL=postgres://…`, any number of server processes). Everything engine-specific lives here
 * and in changeFeed.ts; queries and migrations are written once.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { Database as Tables } from './database';

export type Engine = 'sqlite' | 'postgres';

export interface Connected {
  engine: Engine;
  db: Kysely<Tables>;
  /** The connections of the PostgreSQL pool right now; null on SQLite (one connection, no pool). */
  poolStats: () => PoolStats | null;
}

/** A connection pool's state: its size limit, the connections open and idle, and the queries waiting for one. */
export interface PoolStats {
  max: number;
  open: number;
  idle: number;
  waiting: number;
}

/** Where the data lives: a PostgreSQL URL wins; otherwise the SQLite file (':memory:' for a throw-away one). */
export interface DatabaseLocation {
  databaseUrl: string | null;
  databasePath: string;
}

/**
 * SQLite's transactions start with BEGIN IMMEDIATE: the write lock is taken at the start, so two processes sharing
 * the file never both read and then fail to upgrade to a write (SQLITE_BUSY mid-transaction); the second waits
 * (busy_timeout) and then reads what the first committed.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SQLite runs DDL inside transactions too; saying so makes Kysely's migrator run all pending migrations in one. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * better-sqlite3 behind Kysely, with prepared statements kept by their SQL: Kysely prepares every query anew, and
 * parsing the SQL again is a good part of a small query's cost. The set of SQL texts is small (queries have fixed
 * shapes), and the cache is bounded all the same.
 */
function cachedStatements(db: Database.Database, size = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
        statement = db.prepare(sql) as unknown as SqliteStatement;
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openSqlite(file: string): Kysely<Tables> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable across a process crash in WAL mode (only an OS crash may lose the last commit).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Another process holding the write lock is waited for, up to 5 s.
  sqlite.pragma('busy_timeout = 5000');
  const database = cachedStatements(sqlite);
  const dialect: Dialect = {
    createAdapter: () => new TransactionalDdlSqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver({ database }),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return new Kysely<Tables>({ dialect });
}

const INT8_OID = 20;

/** bigint columns (money, epoch ms, ids, counts) as JS numbers; a value beyond 2^53 is an error, never a rounding. */
function parseBigint(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`bigint ${text} does not fit a JS number`);
  return value;
}

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseBigint : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** node-postgres connection settings shared by the pool and the change feed's listening connection. */
export const pgClientConfig = (url: string): pg.ClientConfig => ({ connectionString: url, types: pgTypes, application_name: 'checkout' });

/** The comment that names a prepared statement (prepared.ts writes it): `/* prepared:pollStatus *\/ select …`. */
export const PREPARED_NAME = /^\/\* prepared:([A-Za-z0-9_]+) \*\/ /;

/**
 * Runs the queries `prepared` named (a leading `/* prepared:name *\/` comment) as server-side prepared statements of
 * this connection: node-postgres parses one on its first use and afterwards only binds new values.
 */
function preparingNamedQueries(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? PREPARED_NAME.exec(text)?.[1] : undefined;
    return name ? query({ name, text, values: rest[0] }, ...rest.slice(1)) : query(text, ...rest);
  };
}

/**
 * The connections a process keeps to the PostgreSQL database at `url`, each running named queries as prepared
 * statements.
 */
export function postgresPool(url: string, poolSize: number, onIdleError: (error: Error) => void, applicationName = 'checkout'): pg.Pool {
  const pool = new pg.Pool({ ...pgClientConfig(url), application_name: applicationName, max: poolSize, idleTimeoutMillis: 30_000 });
  pool.on('connect', preparingNamedQueries);
  // An idle client losing its connection (a restarted server, a proxy's time-out) must not crash the process; the
  // pool drops that client and the next query opens a new one.
  pool.on('error', onIdleError);
  return pool;
}

function openPostgres(url: string, options: ConnectOptions): Connected {
  const borrowed = options.borrowedPool;
  const pool = borrowed ?? postgresPool(url, options.poolSize ?? 10, options.onIdleError ?? (() => {}));
  const max = borrowed ? borrowed.options.max : (options.poolSize ?? 10);
  const poolStats = () => ({ max, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  // A borrowed pool outlives the store: closing the store leaves its connections to their owner.
  const dialectPool = borrowed ? { connect: () => borrowed.connect(), end: async () => {} } : pool;
  return { engine: 'postgres', db: new Kysely<Tables>({ dialect: new PostgresDialect({ pool: dialectPool }) }), poolStats };
}

export interface ConnectOptions {
  /** PostgreSQL pool size per process (DATABASE_POOL_SIZE). */
  poolSize?: number;
  onIdleError?: (error: Error) => void;
  /**
   * A PostgreSQL pool (`postgresPool`) to use instead of opening one, left open when the store closes: the test suites
   * keep one per database across the servers they build on it, so each server's first queries find warm connections.
   */
  borrowedPool?: pg.Pool;
}

export function connect(location: DatabaseLocation, options: ConnectOptions = {}): Connected {
  if (location.databaseUrl) return openPostgres(location.databaseUrl, options);
  return { engine: 'sqlite', db: openSqlite(location.databasePath), poolStats: () => null };
}

/**
 * How many times in all a PostgreSQL transaction is tried after it failed with `error` (1: not retried). A
 * serialization failure or a deadlock means it lost to a concurrent transaction. A unique violation in a SERIALIZABLE
 * transaction may be one too, undetected as such (PostgreSQL's manual, "Serializable Isolation Level"): the transaction
 * decided to insert on a read that a concurrent commit made stale, and run again it reads that commit. A genuine
 * duplicate fails the same way each time, so those get only a few tries.
 */
export function triesFor(error: unknown): number {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === '40001' || code === '40P01') return 12;
  if (code === '23505') return 3;
  return 1;
}
