/**
 * The migrations runner: the migrations given (server/migrations/, one file each) are applied in name order on start
 * by Kysely's Migrator (its `kysely_migration` table remembers which ran). All pending migrations run in one
 * transaction: on PostgreSQL under the migrator's advisory lock, on SQLite under BEGIN IMMEDIATE, so processes
 * starting together never migrate twice.
 *
 * Also the few helpers a migration needs to be written once for both engines.
 *
 * SQLite files made before Kysely counted their migrations in `PRAGMA user_version`; migration N of that era is
 * already applied in a file whose user_version is N or more, so it is recorded as run without touching the file.
 */
import { Migrator, PostgresAdapter, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';

export type { Migration };
export type AnyDb = Kysely<unknown>;

export const isPostgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

/** How many migrations a pre-Kysely SQLite file had applied (0 for a new file and for PostgreSQL). */
async function legacyVersion(db: AnyDb): Promise<number> {
  if (isPostgres(db)) return 0;
  const { rows } = await sql<{ user_version: number }>`pragma user_version`.execute(db);
  return rows[0]?.user_version ?? 0;
}

/** A migration of the user_version era: skipped (and recorded as run) where that version is already applied. */
export const legacy = (version: number, up: (db: AnyDb) => Promise<void>): Migration => ({
  up: async (db) => {
    if ((await legacyVersion(db)) < version) await up(db);
  },
});

/**
 * A row id that the database assigns: SQLite's rowid alias (INTEGER PRIMARY KEY, exactly that spelling), PostgreSQL's
 * identity column.
 */
export const withId = <T extends string>(db: AnyDb, table: CreateTableBuilder<T>) =>
  isPostgres(db)
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey());

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();

/** Applies every pending migration; throws the first failure (nothing of a failed run stays applied). */
export async function migrateToLatest(db: AnyDb, migrations: Record<string, Migration>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
  return (results ?? []).map((result) => result.migrationName);
}
