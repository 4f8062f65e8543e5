/**
 * The database a test server runs on. The server suites run twice when PostgreSQL is available: once on SQLite (a file
 * in the test's temporary folder) and once on PostgreSQL (the `server · postgres` and `e2e · postgres` projects of
 * jest.config.js), where every server a test starts gets a database of its own on the test cluster
 * (test/support/postgresSetup.ts), given up when the server closes.
 *
 * Most tests start from the demo seed: they get a copy of a template made once per run (migrated, then seeded at the
 * test clock's start with the test password cost), which is what migrating and seeding an empty database would give
 * them, for a fraction of the cost: a copied file on SQLite; on PostgreSQL, `CREATE DATABASE … TEMPLATE` for the
 * file's first test, and for the next ones that copy put back as the template had it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrations } from '../../server/migrations';
import { seedDemo } from '../../server/sandbox/demoBills';
import { postgresPool } from '../../server/store/engines';
import { openStore } from '../../server/store/store';

/** The test clock's start (the server suites' fake clock): 2026-01-15 09:00 UTC. */
export const START = Date.UTC(2026, 0, 15, 9, 0, 0);

/** scrypt is slow on purpose; tests hash with a low cost (the cost travels inside each hash). */
export const TEST_PASSWORD_COST = 1024;

export type TestEngine = 'sqlite' | 'postgres';

declare global {
  /** Set per project in jest.config.js. */
  var CHECKOUT_TEST_ENGINE: TestEngine | undefined;
}

/** The engine this test file runs on. */
export const testEngine = (): TestEngine => globalThis.CHECKOUT_TEST_ENGINE ?? 'sqlite';

/** The PostgreSQL cluster's maintenance database (TEST_DATABASE_URL, or the throw-away cluster of the global setup). */
export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL || process.env.CHECKOUT_TEST_ADMIN_URL;
  if (!url) throw new Error('no PostgreSQL for the postgres test projects: set TEST_DATABASE_URL or install postgresql');
  return url;
}

export interface TestDatabase {
  databaseUrl: string | null;
  databasePath: string;
  /**
   * A seeded PostgreSQL copy's pool, kept across the file's tests that take the copy: a server built on it borrows it
   * (AppOptions.borrowedDatabasePool) and its first queries find connections that have run them before.
   */
  pool?: pg.Pool;
  /** Drops a PostgreSQL database (nothing to do for a SQLite file: its folder goes with the test). */
  drop(): Promise<void>;
}

/** Runs `work` on a connection of its own to the database at `url`, closed after. */
async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const admin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => onDatabase(adminUrl(), work);

/** Drops a database of the test cluster, whoever is still connected to it. */
const dropDatabase = (name: string) => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));

/** The name of the database a URL of the test cluster names. */
const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** Prefix of every database this test run makes, so its teardown can find the ones a failed test left behind. */
export const testDatabasePrefix = () => `checkout_test_${process.env.CHECKOUT_TEST_RUN ?? 'run'}_`;

/** A new, empty database on this file's engine; `dir` holds the SQLite file. */
export async function freshDatabase(dir: string, engine: TestEngine = testEngine()): Promise<TestDatabase> {
  return createDatabase(dir, engine, null);
}

/** A new database of the engine, empty or a copy of a template (a SQLite file, or a PostgreSQL database's name). */
async function createDatabase(dir: string, engine: TestEngine, template: string | null): Promise<TestDatabase> {
  const databasePath = path.join(dir, 'checkout.sqlite');
  if (engine === 'sqlite') {
    if (template) fs.copyFileSync(template, databasePath);
    return { databaseUrl: null, databasePath, drop: async () => {} };
  }
  const name = `${testDatabasePrefix()}${crypto.randomBytes(6).toString('hex')}`;
  // Copied file by file: PostgreSQL's default copy writes every page of the template into the log, about twice the
  // time (a few hundred ms a database, and a server test makes one per test). Durability is no concern on a test
  // cluster.
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template ?? 'template1'} STRATEGY FILE_COPY`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    databasePath,
    drop: () => dropDatabase(name),
  };
}

/** Where the journeys' migrated, unseeded SQLite template is, set by their global setup (test/e2e/globalSetup.ts). */
const MIGRATED_SQLITE_VARIABLE = 'CHECKOUT_TEST_SQLITE_MIGRATED';

/**
 * A migrated database with nothing in it: on SQLite a copy of the run's migrated template when the run has one (the
 * journeys' servers, which seed on the real clock), else a fresh database the server migrates as it opens. Migrating
 * an empty SQLite file costs a journey file's server about half a second.
 */
export async function migratedDatabase(dir: string, engine: TestEngine = testEngine()): Promise<TestDatabase> {
  return createDatabase(dir, engine, engine === 'sqlite' ? (process.env[MIGRATED_SQLITE_VARIABLE] ?? null) : null);
}

/** Makes the run's migrated, unseeded SQLite template (migratedDatabase) and answers what removes it. */
export function makeMigratedSqliteTemplate(): Promise<() => void> {
  return sqliteTemplate(MIGRATED_SQLITE_VARIABLE, async (databasePath) => {
    const store = await openStore({ databaseUrl: null, databasePath, now: () => START, migrations });
    await store.close();
  });
}

/**
 * A SQLite template file in a folder of its own, made by `make` and named in the environment variable `variable` for
 * the workers; answers what removes both. Closed, the file holds everything (its write-ahead log checkpointed into
 * it), so a copy is a whole database.
 */
async function sqliteTemplate(variable: string, make: (databasePath: string) => Promise<void>): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-template-'));
  const databasePath = path.join(dir, 'template.sqlite');
  await make(databasePath);
  process.env[variable] = databasePath;
  return () => {
    delete process.env[variable];
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** Where the run's templates are, set by the global setups (test/support/sqliteSetup.ts, postgresSetup.ts). */
const TEMPLATE_VARIABLE: Record<TestEngine, string> = { sqlite: 'CHECKOUT_TEST_SQLITE_TEMPLATE', postgres: 'CHECKOUT_TEST_POSTGRES_TEMPLATE' };

/**
 * A migrated database holding the demo seed as seeded at START with TEST_PASSWORD_COST, copied from the run's
 * template; a fresh one migrated and seeded here when the run has none (a file run outside its project).
 */
export async function seededDatabase(dir: string, engine: TestEngine = testEngine()): Promise<TestDatabase> {
  const template = process.env[TEMPLATE_VARIABLE[engine]];
  if (template && engine === 'postgres') return reusedCopy(dir, template);
  if (template) return createDatabase(dir, engine, template);
  const database = await freshDatabase(dir, engine);
  await migrateAndSeed(database);
  return database;
}

/**
 * On PostgreSQL a copy of the template costs the cluster a checkpoint and a copy of its files (a few hundred ms), and
 * dropping it about a hundred ms more, on every test. So a copy a test is done with is put back as the template had
 * it instead (`putBack`: every table emptied and filled again with the seed's rows, every sequence set back; about
 * 90 ms, while the file's next test starts), and the next test takes it. Copies are made only while none is free: one
 * per file, a second for a test that runs two servers of their own. Those left are dropped after the file's tests
 * (each test file has this module to itself).
 */
const free: Promise<string | null>[] = [];

/**
 * Each copy's pool, made with the copy and ended when it is dropped. A new connection to a copy costs its server tens
 * of ms on every test (a backend to start, then the catalog read again for each table its first queries touch): about
 * 60 ms to open the store and 40 ms more on the first request. Its connections are named so that putting the copy back
 * leaves them alone: a server that closed has returned them idle.
 */
const pools = new Map<string, pg.Pool>();
const POOL_NAME = 'checkout-tests';

function poolOf(url: string): pg.Pool {
  let pool = pools.get(url);
  if (!pool) {
    pool = postgresPool(url, 10, () => {}, POOL_NAME);
    pools.set(url, pool);
  }
  return pool;
}

async function dropCopy(url: string): Promise<void> {
  const pool = pools.get(url);
  pools.delete(url);
  await pool?.end().catch(() => {});
  await dropDatabase(nameOf(url));
}

// Not in the global setups, which make the template with this module but run no tests.
if (typeof afterAll === 'function') {
  afterAll(async () => {
    const left = await Promise.all(free.splice(0));
    await Promise.all(left.filter((url) => url !== null).map((url) => dropCopy(url)));
  });
}

async function reusedCopy(dir: string, template: string): Promise<TestDatabase> {
  for (let next = free.shift(); next; next = free.shift()) {
    const url = await next;
    if (url) return handedOut(url, dir);
  }
  const made = await createDatabase(dir, 'postgres', template);
  // The seed is read from the first copy, before any test has changed it (a template takes no connections).
  seed ??= readSeed(made.databaseUrl!);
  await seed;
  return handedOut(made.databaseUrl!, dir);
}

/** A copy for one test: its `drop` puts it back once, in the background; one that cannot be put back is dropped. */
function handedOut(url: string, dir: string): TestDatabase {
  let returned = false;
  return {
    databaseUrl: url,
    databasePath: path.join(dir, 'checkout.sqlite'),
    pool: poolOf(url),
    drop: async () => {
      if (returned) return;
      returned = true;
      free.push(
        seed!.then((rows) => putBack(url, rows)).then(
          () => url,
          () => dropCopy(url).then(() => null, () => null),
        ),
      );
    },
  };
}

/** What a copy of the template holds: each table's rows (the tables in an order that puts no row before its parent) and each sequence's value. */
interface Seed {
  tables: { name: string; columns: string[]; rows: string }[];
  sequences: { name: string; value: string | null; start: string }[];
}

let seed: Promise<Seed> | null = null;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The schema's history is the same in every copy and no test writes it: it is neither read nor put back. */
const UNTOUCHED = ['kysely_migration', 'kysely_migration_lock'];

async function readSeed(url: string): Promise<Seed> {
  return onDatabase(url, async (client) => {
    const { rows: tables } = await client.query<{ name: string; columns: string[] }>(
      `select c.relname as name,
              array_agg(a.attname::text order by a.attnum) filter (where a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid
        where n.nspname = 'public' and c.relkind = 'r' and c.relname <> all($1)
        group by c.relname`,
      [UNTOUCHED],
    );
    const { rows: references } = await client.query<{ child: string; parent: string }>(
      `select c.relname as child, p.relname as parent
         from pg_constraint f
         join pg_class c on c.oid = f.conrelid
         join pg_class p on p.oid = f.confrelid
        where f.contype = 'f' and f.conrelid <> f.confrelid`,
    );
    // Parents before children, so the rows go back in with every foreign key checked.
    const ordered: typeof tables = [];
    const placed = new Set<string>();
    const place = (table: (typeof tables)[number], path: string[]) => {
      if (placed.has(table.name)) return;
      if (path.includes(table.name)) throw new Error(`the tables' foreign keys go round: ${[...path, table.name].join(' → ')}`);
      for (const { parent } of references.filter((reference) => reference.child === table.name)) {
        const found = tables.find((candidate) => candidate.name === parent);
        if (found) place(found, [...path, table.name]);
      }
      placed.add(table.name);
      ordered.push(table);
    };
    for (const table of tables) place(table, []);
    const withRows = [];
    for (const table of ordered) {
      const { rows } = await client.query<{ rows: string }>(`select coalesce(json_agg(t), '[]')::text as rows from ${quoted(table.name)} t`);
      withRows.push({ ...table, rows: rows[0]!.rows });
    }
    const { rows: sequences } = await client.query<{ name: string; value: string | null; start: string }>(
      `select sequencename as name, last_value::text as value, start_value::text as start from pg_sequences where schemaname = 'public'`,
    );
    return { tables: withRows, sequences };
  });
}

/**
 * Puts a copy back as the template had it, in one query on the copy's pool: the other connections still open on it
 * ended (a server a test killed; not the pool's, which its servers returned idle), then in one transaction every
 * table's rows deleted (children first), the seed's rows written back (parents first) and every sequence set back.
 * Deleting costs a small table far less than TRUNCATE, which makes new files.
 */
async function putBack(url: string, { tables, sequences }: Seed): Promise<void> {
  const tag = `$seed_${crypto.randomBytes(4).toString('hex')}$`;
  const statements = [
    'begin',
    ...[...tables].reverse().map((table) => `delete from ${quoted(table.name)}`),
    ...tables
      .filter((table) => table.rows !== '[]')
      .map((table) => {
        if (table.rows.includes(tag)) throw new Error(`the seed of ${table.name} holds ${tag}`);
        const columns = table.columns.map(quoted).join(', ');
        return `insert into ${quoted(table.name)} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${quoted(table.name)}, ${tag}${table.rows}${tag})`;
      }),
    ...sequences.map((sequence) => `select setval('${quoted(sequence.name)}', ${Number(sequence.value ?? sequence.start)}, ${sequence.value !== null})`),
    'commit',
  ];
  const others = `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name <> '${POOL_NAME}'`;
  // One round trip on one of the copy's own warm connections. The statements between begin and commit run as one
  // transaction: an error rolls all of them back.
  await poolOf(url).query([others, ...statements].join(';\n'));
}

async function migrateAndSeed(database: Pick<TestDatabase, 'databaseUrl' | 'databasePath'>) {
  const store = await openStore({ ...database, now: () => START, migrations });
  try {
    await seedDemo(store, TEST_PASSWORD_COST);
  } finally {
    await store.close();
  }
}

/**
 * Makes the run's template of the engine (once per run, in a global setup) and tells the workers where it is; answers
 * what removes it.
 */
export async function makeTemplate(engine: TestEngine): Promise<() => Promise<void>> {
  if (engine === 'sqlite') {
    const remove = await sqliteTemplate(TEMPLATE_VARIABLE.sqlite, (databasePath) => migrateAndSeed({ databaseUrl: null, databasePath }));
    return async () => remove();
  }
  // Named with the run's prefix, so the teardown that drops what a failed test left drops it too.
  const name = `${testDatabasePrefix()}template`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  // No connection may stay open on a template while databases are copied from it: the store is closed before any test.
  await migrateAndSeed({ databaseUrl: url.toString(), databasePath: '' });
  process.env[TEMPLATE_VARIABLE.postgres] = name;
  return async () => {
    delete process.env[TEMPLATE_VARIABLE.postgres];
    await dropDatabase(name);
  };
}
