import fs from 'node:fs';
import path from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { migrations } from '../../../server/migrations';
import { connect } from '../../../server/store/engines';
import { migrateToLatest, type AnyDb, type Migration } from '../../../server/store/migrator';
import { freshDatabase, testEngine } from '../../support/testDatabase';
import { tempDirs } from '../helpers';

/**
 * A migration that has been applied must make the same schema forever: every statement each migration runs on a new
 * database, compiled by this engine, is held against the SQL recorded when it was written (test/fixtures/migration-sql.json).
 * A helper shared by migrations, a refactoring or a Kysely upgrade that changes one byte of it fails here. A new
 * migration is recorded once, with RECORD_MIGRATION_SQL=1 on each engine in turn (`--selectProjects server`, then
 * `'server · postgres'`: both write the one file), and never again once released (one not yet released may be recorded
 * afresh: delete its entries first).
 */
const RECORDED = path.join(__dirname, '../../fixtures/migration-sql.json');

type Statements = Record<string, { sql: string; parameters: readonly unknown[] }[]>;

/** Every migration as given, its statements compiled as they run, in order. */
async function statementsOfEveryMigration(): Promise<Statements> {
  const { dir } = tempDirs();
  const database = await freshDatabase(dir);
  const { db } = connect(database);
  const ran: Statements = {};
  const recording = (name: string, migration: Migration): Migration => ({
    up: async (tx: AnyDb) => {
      const statements: Statements[string] = (ran[name] = []);
      const recorder: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          const { sql, parameters } = tx.getExecutor().compileQuery(node, queryId);
          statements.push({ sql, parameters });
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      await migration.up(tx.withPlugin(recorder));
    },
  });
  try {
    await migrateToLatest(db as unknown as AnyDb, Object.fromEntries(Object.entries(migrations).map(([name, migration]) => [name, recording(name, migration)])));
  } finally {
    await db.destroy();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return ran;
}

test(`every migration runs exactly the statements recorded for it (${testEngine()})`, async () => {
  const engine = testEngine();
  const recorded = (fs.existsSync(RECORDED) ? JSON.parse(fs.readFileSync(RECORDED, 'utf8')) : {}) as Partial<Record<string, Statements>>;
  const ran = await statementsOfEveryMigration();
  if (process.env.RECORD_MIGRATION_SQL === '1') {
    // Only migrations not yet recorded are written: a recorded one is history.
    const kept = recorded[engine] ?? {};
    recorded[engine] = Object.fromEntries(Object.keys(migrations).map((name) => [name, kept[name] ?? ran[name]!]));
    fs.writeFileSync(RECORDED, `${JSON.stringify(recorded, null, 1)}\n`);
  }
  const mine = recorded[engine] ?? {};
  const unrecorded = Object.keys(migrations).filter((name) => !(name in mine));
  expect({ unrecorded, hint: unrecorded.length > 0 ? 'run this test with RECORD_MIGRATION_SQL=1, on each engine in turn' : null }).toEqual({ unrecorded: [], hint: null });
  for (const name of Object.keys(migrations)) expect({ name, statements: ran[name] }).toEqual({ name, statements: mine[name] });
});
