/** The session queries. */
import { changedRows, first } from '../store/database';
import { prepared } from '../store/prepared';
import type { Store } from '../store/store';
import type { SessionRow } from './tables';

/** Every column of a session, named (a named prepared query lists its columns); the Record makes the list complete. */
const SESSION_COLUMNS = Object.keys({
  id: true,
  csrf_token: true,
  account_id: true,
  created_at: true,
  seen_at: true,
  user_token: true,
} satisfies Record<keyof SessionRow, true>) as (keyof SessionRow)[];

// Read by the CSRF check of every POST: compiled once per engine, and a prepared statement on PostgreSQL.
const sessionByIdQuery = prepared((db, a: { id: string }) => db.selectFrom('sessions').select(SESSION_COLUMNS).where('id', '=', a.id), { name: 'sessionById' });

export const sessionById = async (store: Store, id: string): Promise<SessionRow | undefined> => first(await sessionByIdQuery(store, { id }));

export async function insertSession(store: Store, id: string, csrfToken: string): Promise<void> {
  const t = store.now();
  await store.db.insertInto('sessions').values({ id, csrf_token: csrfToken, account_id: null, created_at: t, seen_at: t }).execute();
}

/** Signs a session in (or out, with null); a new sign-in never inherits the previous user's token. */
export async function setSessionAccount(store: Store, sessionId: string, accountId: number | null): Promise<void> {
  await store.db.updateTable('sessions').set({ account_id: accountId, user_token: null, seen_at: store.now() }).where('id', '=', sessionId).execute();
}

export async function setUserToken(store: Store, sessionId: string, token: string | null): Promise<void> {
  await store.db.updateTable('sessions').set({ user_token: token }).where('id', '=', sessionId).execute();
}

/** Gives a session a new id (verifications and free calls follow by ON UPDATE CASCADE). */
export async function renameSession(store: Store, oldId: string, newId: string): Promise<void> {
  await store.db.updateTable('sessions').set({ id: newId }).where('id', '=', oldId).execute();
}

/** The session was used now (its idle time starts again). */
export async function touchSession(store: Store, id: string): Promise<void> {
  await store.db.updateTable('sessions').set({ seen_at: store.now() }).where('id', '=', id).execute();
}

/** Ends a session: its verifications and free-call locks go with it (ON DELETE CASCADE). */
export async function deleteSession(store: Store, id: string): Promise<void> {
  await store.db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Deletes every session idle since `idleBefore` or begun before `bornBefore`; answers how many. */
export const sweepSessions = async (store: Store, idleBefore: number, bornBefore: number): Promise<number> =>
  changedRows(
    await store.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('seen_at', '<=', idleBefore), eb('created_at', '<=', bornBefore)]))
      .executeTakeFirstOrThrow(),
  );
