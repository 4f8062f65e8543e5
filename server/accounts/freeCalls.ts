/**
 * The free call: the payer calls the free-call line from their phone, and the call proves the phone, signing its
 * account in. The page locks the phone first (this session waits for that call); the line records the call. A call
 * signs in exactly one session: a session may lock only a phone it entered in this flow (a restore code was sent to
 * it), and a phone has at most one waiting lock, the newest; a replaced one simply never hears of the call.
 */
import { changedRows } from '../store/database';
import type { Store } from '../store/store';
import { phoneEnteredForRestore } from './codes';

/** A free-call lock waits this long for the call (the page polls for 60 s; a little slack for the line). */
export const FREE_CALL_WINDOW_MS = 2 * 60_000;

/**
 * This session now waits for a call from `phone`, replacing whichever lock waited for it before; false (and nothing
 * locked) when the session never entered that phone for a restore.
 */
export async function lockFreeCall(store: Store, sessionId: string, phone: string): Promise<boolean> {
  if (!(await phoneEnteredForRestore(store, sessionId, phone))) return false;
  await store.transaction(async (tx) => {
    // The newer lock replaces the one still waiting for a call from this phone, whichever session made it.
    await tx.db.deleteFrom('free_calls').where('phone', '=', phone).where('called_at', 'is', null).execute();
    await tx.db.insertInto('free_calls').values({ session_id: sessionId, phone, locked_at: tx.now(), expires_at: tx.now() + FREE_CALL_WINDOW_MS }).execute();
  });
  return true;
}

/** Whether the call came in to this session's own (latest) lock of `phone`. */
export async function callCameIn(store: Store, sessionId: string, phone: string): Promise<boolean> {
  const lock = await store.db.selectFrom('free_calls').selectAll().where('session_id', '=', sessionId).where('phone', '=', phone).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return lock?.called_at != null;
}

/** The free-call line heard a call from this phone: the one live lock for it, if any, is answered; answers how many. */
export async function recordCall(store: Store, phone: string): Promise<number> {
  const t = store.now();
  return changedRows(
    await store.db.updateTable('free_calls').set({ called_at: t }).where('phone', '=', phone).where('called_at', 'is', null).where('expires_at', '>', t).executeTakeFirstOrThrow(),
  );
}
