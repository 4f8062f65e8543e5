/** The free calls' queries: a session's call checks at the provider. */
import { noLiveLease, takeLease } from '../platform/lease';
import { changedRows } from '../store/database';
import type { Store } from '../store/store';
import type { FreeCallCheckRow, FreeCallState } from './tables';

/** This session's live checks of the phone give way to a new one (another session's stay its own). */
export async function replaceChecksOfSession(store: Store, sessionId: string, phone: string): Promise<void> {
  await store.db
    .updateTable('free_call_checks')
    .set({ state: 'replaced' })
    .where('session_id', '=', sessionId)
    .where('phone', '=', phone)
    .where('state', 'in', ['waiting', 'confirmed'])
    .execute();
}

export async function insertCheck(store: Store, check: Pick<FreeCallCheckRow, 'session_id' | 'phone' | 'check_id' | 'call_phone' | 'call_phone_pretty' | 'expires_at'>): Promise<void> {
  await store.db.insertInto('free_call_checks').values({ ...check, state: 'waiting', created_at: store.now() }).execute();
}

/** The session's newest check of a phone (not one it replaced). */
export const checkOfSession = (store: Store, sessionId: string, phone: string): Promise<FreeCallCheckRow | undefined> =>
  store.db
    .selectFrom('free_call_checks')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('phone', '=', phone)
    .where('state', '!=', 'replaced')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const checkById = (store: Store, id: number): Promise<FreeCallCheckRow | undefined> =>
  store.db.selectFrom('free_call_checks').selectAll().where('id', '=', id).executeTakeFirst();

export const checkByCheckId = (store: Store, checkId: string): Promise<FreeCallCheckRow | undefined> =>
  store.db.selectFrom('free_call_checks').selectAll().where('check_id', '=', checkId).executeTakeFirst();

/** Takes the check's read at the provider until `until` (one conditional UPDATE: one reader at a time, across processes). */
export const claimCheckRead = (store: Store, id: number, until: number): Promise<boolean> =>
  takeLease(store, 'free_call_checks', { id, state: 'waiting' }, 'read_until', until);

/** Takes the check's read as claimCheckRead does, only if no read of it ended after `readBefore` either. */
export async function claimCheckReadIfStale(store: Store, id: number, until: number, readBefore: number): Promise<boolean> {
  const query = store.db
    .updateTable('free_call_checks')
    .set({ read_until: until })
    .where('id', '=', id)
    .where('state', '=', 'waiting')
    .where(noLiveLease('read_until', store.now()))
    .where((eb) => eb.or([eb('read_at', 'is', null), eb('read_at', '<=', readBefore)]));
  return changedRows(await query.executeTakeFirstOrThrow()) === 1;
}

/** Ends a read: its hold is released and the time it happened kept. */
export async function finishCheckRead(store: Store, id: number): Promise<void> {
  await store.db.updateTable('free_call_checks').set({ read_until: null, read_at: store.now() }).where('id', '=', id).execute();
}

/** Moves checks from one state to another; answers how many moved. */
export const moveChecks = async (store: Store, ids: number[], from: FreeCallState[], to: FreeCallState): Promise<number> =>
  ids.length === 0
    ? 0
    : changedRows(await store.db.updateTable('free_call_checks').set({ state: to }).where('id', 'in', ids).where('state', 'in', from).executeTakeFirstOrThrow());

/**
 * The other checks that a call from this phone to this number may as well have been for: waiting or confirmed (not yet
 * signed in), and not yet over.
 */
export const rivalChecks = (store: Store, check: FreeCallCheckRow): Promise<FreeCallCheckRow[]> =>
  store.db
    .selectFrom('free_call_checks')
    .selectAll()
    .where('phone', '=', check.phone)
    .where('call_phone', '=', check.call_phone)
    .where('id', '!=', check.id)
    .where('state', 'in', ['waiting', 'confirmed'])
    .where('expires_at', '>', store.now())
    .execute();
