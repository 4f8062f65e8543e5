/**
 * Operations: the request counters of the per-client limits, shared by every process (PostgreSQL), and the request id
 * kept with what a request causes: the acquirer exchanges, the webhook events and their delivery attempts.
 */
import { sql } from 'kysely';
import { isPostgres, notNull, type Migration } from '../store/migrator';

export const migration: Migration = {
  up: async (db) => {
    // Counters need no durability: on PostgreSQL the table is unlogged (no WAL for a write per request; a crash
    // empties it, which only forgives the clients their current minute).
    const hits = db.schema.createTable('rate_limit_hits');
    await (isPostgres(db) ? hits.modifyFront(sql`unlogged`) : hits)
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', notNull)
      .addColumn('resets_at', 'bigint', notNull)
      .execute();

    for (const table of ['acquirer_exchanges', 'webhook_events', 'webhook_attempts']) {
      await db.schema.alterTable(table).addColumn('request_id', 'text').execute();
    }
  },
};
