/** The loyalty account queries. */
import type { Store } from '../store/store';
import type { AccountRow } from './tables';

export const accountByPhone = (store: Store, phone: string): Promise<AccountRow | undefined> =>
  store.db.selectFrom('loyalty_accounts').selectAll().where('phone', '=', phone).executeTakeFirst();

export const accountById = (store: Store, id: number): Promise<AccountRow | undefined> =>
  store.db.selectFrom('loyalty_accounts').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertAccount(store: Store, account: Omit<AccountRow, 'id' | 'created_at'>): Promise<void> {
  await store.db.insertInto('loyalty_accounts').values({ ...account, created_at: store.now() }).execute();
}

export async function setPassword(store: Store, accountId: number, passwordHash: string): Promise<void> {
  await store.db.updateTable('loyalty_accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
}
