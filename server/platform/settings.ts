/**
 * Settings the server generates once and keeps in the database, so every process and every restart agrees on them
 * (the sandbox's development API key, the webhook secret, the sandbox acquirer's callback key).
 */
import type { Store } from '../store/store';

export interface ServerSettingsTable {
  name: string;
  value: string;
  created_at: number;
}

declare module '../store/database' {
  interface Database {
    server_settings: ServerSettingsTable;
  }
}

/** Stores a setting unless one is there already, and answers whichever is stored (processes starting together agree). */
export async function settingOnce(store: Store, name: string, value: string): Promise<string> {
  await store.db.insertInto('server_settings').values({ name, value, created_at: store.now() }).onConflict((oc) => oc.column('name').doNothing()).execute();
  return (await store.db.selectFrom('server_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow()).value;
}
