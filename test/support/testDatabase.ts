/**
 * The database a test server runs on. The server suites run twice when PostgreSQL is available: once on SQLite (a file
 * in the test's temporary folder) and once on PostgreSQL (the `server · postgres` and `e2e · postgres` projects of
 * jest.config.js), where every server a test starts gets a database of its own, created on the test cluster
 * (test/support/postgresSetup.ts) and dropped when the server closes.
 *
 * Most tests start from the demo seed: they get a copy of a template made once per run (migrated, then seeded at the
 * test clock's start with the test password cost), which is what migrating and seeding an empty database would give
 * them, for a fraction of the cost: a copied file on SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrations } from '../../server/migrations';
import { seedDemo } from '../../server/sandbox/demoBills';
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
  /** Drops a PostgreSQL database (nothing to do for a SQLite file: its folder goes with the test). */
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

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
    drop: () => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
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
  if (template && engine === 'postgres') return spareCopy(dir, template);
  if (template) return createDatabase(dir, engine, template);
  const database = await freshDatabase(dir, engine);
  await migrateAndSeed(database);
  return database;
}

/**
 * On PostgreSQL a copy of the template takes a few hundred ms, so the next test's copy is made while this test runs:
 * each call answers the copy made before it (or makes one) and starts the next. The one no test took is dropped after
 * the file's tests (each test file has this module to itself).
 */
let spare: { template: string; copy: Promise<TestDatabase> } | null = null;

// Not in the global setups, which make the template with this module but run no tests.
if (typeof afterAll === 'function') {
  afterAll(async () => {
    const left = spare;
    spare = null;
    await left?.copy.then((database) => database.drop(), () => {});
  });
}

async function spareCopy(dir: string, template: string): Promise<TestDatabase> {
  const ready = spare?.template === template ? spare.copy : createDatabase(dir, 'postgres', template);
  const next = createDatabase(dir, 'postgres', template);
  // Its failure, if any, is the next test's to hear (it awaits this promise); not an unhandled rejection meanwhile.
  next.catch(() => {});
  spare = { template, copy: next };
  return { ...(await ready), databasePath: path.join(dir, 'checkout.sqlite') };
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
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-template-'));
    const databasePath = path.join(dir, 'template.sqlite');
    // Closed, the file holds everything (its write-ahead log checkpointed into it), so a copy is a whole database.
    await migrateAndSeed({ databaseUrl: null, databasePath });
    process.env[TEMPLATE_VARIABLE.sqlite] = databasePath;
    return async () => {
      delete process.env[TEMPLATE_VARIABLE.sqlite];
      fs.rmSync(dir, { recursive: true, force: true });
    };
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
    await admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  };
}
