/** The SMS outbox's queries (accounts/texts.ts sends from it). */
import type { Updateable } from 'kysely';
import { noLiveLease } from '../platform/lease';
import { dueInOutbox, takeFromOutbox } from '../platform/outbox';
import { changedRows } from '../store/database';
import type { Store } from '../store/store';
import type { SmsMessageRow, SmsMessagesTable } from './tables';

export type NewText = Pick<SmsMessageRow, 'phone' | 'kind' | 'code_id' | 'session_id' | 'sealed_text' | 'send_until' | 'lease_until'>;

/** Writes a pending text, due at once; answers its id. */
export async function insertText(store: Store, text: NewText): Promise<number> {
  const t = store.now();
  const row = await store.db
    .insertInto('sms_messages')
    .values({ ...text, state: 'pending', attempts: 0, next_attempt_at: t, created_at: t, status_reads: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export const textById = (store: Store, id: number): Promise<SmsMessageRow | undefined> =>
  store.db.selectFrom('sms_messages').selectAll().where('id', '=', id).executeTakeFirst();

export const textBySmsId = (store: Store, smsId: string): Promise<SmsMessageRow | undefined> =>
  store.db.selectFrom('sms_messages').selectAll().where('sms_id', '=', smsId).executeTakeFirst();

/** A phone's newest texts first, for support ("the SMS did not come"): never their words. */
export const textsOfPhone = (store: Store, phone: string, limit: number): Promise<SmsMessageRow[]> =>
  store.db.selectFrom('sms_messages').selectAll().where('phone', '=', phone).orderBy('id', 'desc').limit(limit).execute();

/** Ids of pending texts due now and held by no live lease. */
export const dueTexts = async (store: Store, limit: number): Promise<number[]> => (await dueInOutbox(store, 'sms_messages', limit)).map(Number);

/**
 * Takes a pending text for one attempt until `leaseUntil`: of several senders only one gets it. `dueOnly` leaves a text
 * alone until its next attempt is due (the worker); the payer asking again takes it now.
 */
export const claimText = (store: Store, id: number, leaseUntil: number, dueOnly: boolean): Promise<SmsMessageRow | undefined> =>
  takeFromOutbox(store, 'sms_messages', id, leaseUntil, dueOnly);

/** Records what an attempt learnt, releasing the lease; only a text still pending changes. */
export async function recordText(store: Store, id: number, change: Updateable<SmsMessagesTable>): Promise<boolean> {
  return changedRows(await store.db.updateTable('sms_messages').set({ ...change, lease_until: null }).where('id', '=', id).where('state', '=', 'pending').executeTakeFirstOrThrow()) === 1;
}

/** Ids of accepted texts whose delivery status is due to be read. */
export async function statusDueTexts(store: Store, limit: number): Promise<number[]> {
  return (
    await store.db.selectFrom('sms_messages').select('id').where('next_status_at', '<=', store.now()).orderBy('next_status_at').limit(limit).execute()
  ).map((row) => Number(row.id));
}

/**
 * Takes a text's scheduled status read, unless another read holds it (one conditional UPDATE moves its next read on and
 * holds it until `readUntil`): answers the text, or undefined.
 */
export function claimStatusRead(store: Store, id: number, holdUntil: number, readUntil: number): Promise<SmsMessageRow | undefined> {
  const t = store.now();
  return store.db
    .updateTable('sms_messages')
    .set({ next_status_at: holdUntil, status_read_until: readUntil })
    .where('id', '=', id)
    .where('next_status_at', '<=', t)
    .where(noLiveLease('status_read_until', t))
    .returningAll()
    .executeTakeFirst();
}

/**
 * Takes a read of a text's delivery out of its schedule (the provider's callback said it changed): only of a text taken
 * and still on the way, and only when no read holds it, in any process (one conditional UPDATE holds it until
 * `readUntil`). Answers the text, or undefined.
 */
export function claimDeliveryRead(store: Store, id: number, readUntil: number): Promise<SmsMessageRow | undefined> {
  const t = store.now();
  return store.db
    .updateTable('sms_messages')
    .set({ status_read_until: readUntil })
    .where('id', '=', id)
    .where('state', '=', 'accepted')
    .where('delivery', '=', 'on the way')
    .where(noLiveLease('status_read_until', t))
    .returningAll()
    .executeTakeFirst();
}

export async function recordDelivery(store: Store, id: number, change: Pick<Updateable<SmsMessagesTable>, 'status_code' | 'delivery' | 'status_reads' | 'next_status_at' | 'status_read_until' | 'error'>): Promise<void> {
  await store.db.updateTable('sms_messages').set(change).where('id', '=', id).where('state', '=', 'accepted').execute();
}

/** Whether a code may still be entered (a text for a dead code is not sent). */
export const codeIsLive = async (store: Store, codeId: number): Promise<boolean> =>
  (await store.db.selectFrom('sms_codes').select('id').where('id', '=', codeId).where('state', '=', 'active').where('expires_at', '>', store.now()).executeTakeFirst()) !==
  undefined;

/** The newest password text this session asked for to this phone after a moment. */
export const passwordTextOfSession = (store: Store, sessionId: string, phone: string, since: number): Promise<SmsMessageRow | undefined> =>
  store.db
    .selectFrom('sms_messages')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('phone', '=', phone)
    .where('kind', '=', 'password')
    .where('created_at', '>', since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
