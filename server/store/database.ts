/**
 * The tables as the query layer sees them (Kysely's `Database` type), empty here: the engine names no table. Each
 * domain declares its own in its `tables.ts`, merged into this interface:
 *
 *     declare module '../store/database' {
 *       interface Database { bills: BillsTable }
 *     }
 *
 * Money is integer kopecks and every time is epoch milliseconds (UTC) on both engines: INTEGER on SQLite, bigint on
 * PostgreSQL, read back as JS numbers (engines.ts refuses a bigint beyond 2^53). Flags are 0/1 integers on both, so a
 * row reads the same whichever engine holds it.
 *
 * A new table: its interface in its domain's tables.ts, a migration in server/migrations/, its queries beside its rules.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, one domain at a time
export interface Database {}

/** The first row of a read, if any. */
export const first = <T>(rows: T[]): T | undefined => rows[0];

/** How many rows an UPDATE or DELETE changed (a conditional write's "did I win"). */
export const changedRows = (result: { numUpdatedRows: bigint } | { numDeletedRows: bigint }): number =>
  Number('numUpdatedRows' in result ? result.numUpdatedRows : result.numDeletedRows);
