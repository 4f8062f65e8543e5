/**
 * The database a test server runs on. The server and journey suites run twice when PostgreSQL is available: once on
 * SQLite (a file in the test's temporary folder) and once on PostgreSQL (the `server · postgres` and `e2e · postgres`
 * projects of jest.config.js), where every server a test starts gets a database of its own, created on the test
 * cluster (test/support/postgresSetup.ts) and dropped when the server closes.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

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
  const databasePath = path.join(dir, 'checkout.sqlite');
  if (engine === 'sqlite') return { databaseUrl: null, databasePath, drop: async () => {} };
  const name = `${testDatabasePrefix()}${crypto.randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    databasePath,
    drop: () => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
