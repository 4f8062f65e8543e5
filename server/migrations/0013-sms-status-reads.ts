/**
 * A text's delivery is read from the provider at most once in a while, however many of the provider's callbacks (or
 * forgeries of them) name it: the read holds the text until then, in the database, so that every process sees it.
 */
import type { Migration } from '../store/migrator';

export const migration: Migration = {
  up: async (db) => {
    await db.schema.alterTable('sms_messages').addColumn('status_read_until', 'bigint').execute();
  },
};
