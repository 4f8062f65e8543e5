/** The SMS.ru fake's queries: its own texts and call checks (another party sharing the database; never the product's). */
import crypto from 'node:crypto';
import type { Store } from '../store/store';
import type { FakeCheckRow, FakeTextRow } from './tables';

/** An id as the provider's look: six digits, a hyphen, eight (texts) or a few (checks). */
const providerId = (tail: number) => `${crypto.randomInt(100_000, 1_000_000)}-${String(crypto.randomInt(0, 10 ** tail)).padStart(tail, '0')}`;

export async function insertFakeText(store: Store, text: Pick<FakeTextRow, 'phone' | 'text' | 'status_code'>): Promise<string> {
  const smsId = providerId(8);
  await store.db.insertInto('sandbox_smsru_texts').values({ ...text, sms_id: smsId, created_at: store.now() }).execute();
  return smsId;
}

export const fakeText = (store: Store, smsId: string): Promise<FakeTextRow | undefined> =>
  store.db.selectFrom('sandbox_smsru_texts').selectAll().where('sms_id', '=', smsId).executeTakeFirst();

/** The texts the fake took for a phone, the newest first: what the phone would have received. */
export const fakeTextsOf = (store: Store, phone: string, limit: number): Promise<FakeTextRow[]> =>
  store.db.selectFrom('sandbox_smsru_texts').selectAll().where('phone', '=', phone).orderBy('id', 'desc').limit(limit).execute();

export async function insertFakeCheck(store: Store, check: Pick<FakeCheckRow, 'phone' | 'call_phone' | 'expires_at'>): Promise<string> {
  const checkId = providerId(3);
  await store.db.insertInto('sandbox_smsru_checks').values({ ...check, check_id: checkId, check_status: 400, created_at: store.now() }).execute();
  return checkId;
}

export const fakeCheck = (store: Store, checkId: string): Promise<FakeCheckRow | undefined> =>
  store.db.selectFrom('sandbox_smsru_checks').selectAll().where('check_id', '=', checkId).executeTakeFirst();

/** A phone's checks still waiting for a call, the newest first. */
export const waitingFakeChecks = (store: Store, phone: string): Promise<FakeCheckRow[]> =>
  store.db
    .selectFrom('sandbox_smsru_checks')
    .selectAll()
    .where('phone', '=', phone)
    .where('check_status', '=', 400)
    .where('expires_at', '>', store.now())
    .orderBy('created_at', 'desc')
    .orderBy('check_id', 'desc')
    .execute();

/** Sets the status of the given checks that still wait for a call; answers those it changed. */
export const setFakeCheckStatus = (store: Store, checkIds: string[], status: number): Promise<FakeCheckRow[]> =>
  checkIds.length === 0
    ? Promise.resolve([])
    : store.db.updateTable('sandbox_smsru_checks').set({ check_status: status }).where('check_id', 'in', checkIds).where('check_status', '=', 400).returningAll().execute();
