/** The sandbox's SMS line: an outbox table that `GET /sandbox/sms` shows, written in the caller's transaction. */
import type { SmsGateway } from '../accounts/sms';
import type { Store } from '../store/store';
import type { OutboxRow } from './tables';

export async function insertOutbox(store: Store, phone: string, text: string): Promise<void> {
  await store.db.insertInto('sms_outbox').values({ phone, text, created_at: store.now() }).execute();
}

/** A phone's newest messages first. */
export const outboxOf = (store: Store, phone: string, limit: number): Promise<OutboxRow[]> =>
  store.db.selectFrom('sms_outbox').selectAll().where('phone', '=', phone).orderBy('id', 'desc').limit(limit).execute();

export const outboxGateway: SmsGateway = { send: insertOutbox };
